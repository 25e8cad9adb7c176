export type { Aad, AadPurpose, AddressedAadPurpose } from "./aad.js";
export { AAD_PURPOSES, ADDRESSED_AAD_PURPOSES, aad, aadFor, aadTo, DEVICE_NAME_AAD } from "./aad.js";
export { DEVICE_NAME_PADDED_BYTES, openDeviceName, sealDeviceName } from "./device-name.js";
export type { E2eErrorCode } from "./e2e-error.js";
export { E2eError, isE2eError } from "./e2e-error.js";
export { openFleetState, sealFleetState } from "./fleet-state.js";
export {
  IV_BYTES,
  KEY_BYTES,
  KEY_ID_BYTES,
  KEY_ID_LABEL,
  KEY_PREFIX,
  PASSPHRASE_MIN_CODE_POINTS,
  PASSPHRASE_SALT,
  PASSPHRASE_V2_SALT_PREFIX,
  PBKDF2_ITERATIONS,
  SCRYPT_BLOCK_SIZE,
  SCRYPT_COST,
  SCRYPT_PARALLELISM,
  SEALED_VERSION,
  TAG_BYTES,
} from "./format.js";
export type { E2eKey } from "./key.js";
export { formatKey, generateKey, keyBytes, parseKey } from "./key.js";
export { keyId } from "./key-id.js";
export { openJson, openString } from "./open.js";
export { PAD_LINEAR_FROM_BYTES, PAD_MIN_BYTES, paddedLength } from "./padding.js";
export { checkPassphrase, deriveKeyFromPassphrase, deriveKeyFromPassphraseV1 } from "./passphrase.js";
export type { SealJsonOptions, SealOptions } from "./seal.js";
export { sealJson, sealString } from "./seal.js";
export { sealedKeyId, sealedPlaintextBytes } from "./sealed-format.js";
export { TASK_ID_DIGEST_INFO, taskIdDigest } from "./task-id-digest.js";
