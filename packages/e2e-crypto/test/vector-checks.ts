/**
 * One check per entry of test-vectors.json, run against a loaded copy of the package. Node runs these in
 * vitest (against src/ and dist/); the browser test serves this file, type-stripped, to Chromium, which runs
 * them against dist/. So this file imports nothing at run time and uses only what browsers have.
 */
import type * as E2e from "../src/index.js";

export type E2eLibrary = typeof E2e;

interface SealVector {
  name: string;
  purpose: E2e.AadPurpose;
  id: string;
  aad: string;
  key: string;
  keyId: string;
  iv: string;
  plaintext: string;
  json?: unknown;
  sealed: string;
}

/** A request or reply a device addresses to one computer: `ringback/v2/<purpose>/<computerId>/<id>`. */
interface AddressedSealVector extends Omit<SealVector, "purpose"> {
  purpose: E2e.AddressedAadPurpose;
  computerId: string;
  json: unknown;
}

interface DeviceNameVector {
  name: string;
  aad: string;
  key: string;
  keyId: string;
  iv: string;
  deviceName: string;
  plaintext: string;
  sealed: string;
}

/** `sealFleetState`: `plaintext` is the JSON text and the spaces up to a multiple of `padStepBytes`. */
interface FleetStateVector {
  name: string;
  computerId: string;
  aad: string;
  key: string;
  keyId: string;
  iv: string;
  padStepBytes: number;
  plaintext: string;
  /** What `sealedPlaintextBytes` reads from `sealed` without the key. */
  plaintextBytes: number;
  json: unknown;
  sealed: string;
}

interface FailureVector {
  name: string;
  expect: E2e.E2eErrorCode;
}

export interface TestVectors {
  format: {
    keyPrefix: string;
    keyBytes: number;
    ivBytes: number;
    tagBytes: number;
    sealedVersion: string;
    keyIdLabel: string;
    passphraseSalt: string;
    pbkdf2Iterations: number;
    passphraseMinCodePoints: number;
    passphraseV2SaltPrefix: string;
    scryptCost: number;
    scryptBlockSize: number;
    scryptParallelism: number;
    padMinBytes: number;
    padLinearFromBytes: number;
    taskIdDigestInfo: string;
    deviceNameAad: string;
    deviceNamePaddedBytes: number;
  };
  seal: SealVector[];
  sealAddressed: AddressedSealVector[];
  /** JSON sealed with `{ pad: true }`: `plaintext` is the JSON text and the spaces of its size bucket. */
  sealPadded: (SealVector & { json: unknown })[];
  paddedLengths: { bytes: number; padded: number }[];
  taskIdDigests: { name: string; key: string; taskId: string; digest: string }[];
  /** `sealDeviceName`: `plaintext` is `{"name":…}` and the spaces up to `format.deviceNamePaddedBytes`. */
  sealDeviceNames: DeviceNameVector[];
  sealFleetStates: FleetStateVector[];
  openFailures: (FailureVector & { key: string; aad: string; sealed: string })[];
  passphrases: { name: string; passphrase: string; key: string }[];
  passphraseFailures: (FailureVector & { passphrase: string })[];
  passphrasesV2: { name: string; passphrase: string; accountId: string; key: string; keyId: string }[];
  passphraseV2Failures: (FailureVector & { passphrase: string; accountId: string })[];
  keyIds: { name: string; key: string; keyId: string }[];
  invalidKeys: (FailureVector & { text: string })[];
}

export interface VectorCheck {
  name: string;
  /** Resolves when the library matches the vector; rejects with the reason otherwise. */
  run(library: E2eLibrary): Promise<void>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  error?: string;
}

/** Every check the vectors define, in file order. */
export function vectorChecks(vectors: TestVectors): VectorCheck[] {
  return [
    { name: "format: constants", run: (library) => checkFormat(library, vectors.format) },
    ...vectors.seal.map((vector) => ({
      name: `seal: ${vector.name}`,
      run: (library: E2eLibrary) => checkSeal(library, vector),
    })),
    ...vectors.sealAddressed.map((vector) => ({
      name: `seal addressed: ${vector.name}`,
      run: (library: E2eLibrary) =>
        checkSealed(library, vector, library.aadTo(vector.purpose, vector.computerId, vector.id)),
    })),
    ...vectors.sealPadded.map((vector) => ({
      name: `seal padded: ${vector.name}`,
      run: (library: E2eLibrary) => checkPadded(library, vector),
    })),
    {
      name: "padded lengths",
      run: async (library: E2eLibrary) => {
        for (const { bytes, padded } of vectors.paddedLengths)
          same(`paddedLength(${bytes})`, library.paddedLength(bytes), padded);
      },
    },
    ...vectors.taskIdDigests.map((vector) => ({
      name: `task id digest: ${vector.name}`,
      run: async (library: E2eLibrary) =>
        same(
          "taskIdDigest",
          await library.taskIdDigest(library.parseKey(vector.key), vector.taskId),
          vector.digest,
        ),
    })),
    ...vectors.sealDeviceNames.map((vector) => ({
      name: `seal device name: ${vector.name}`,
      run: (library: E2eLibrary) => checkDeviceName(library, vector),
    })),
    ...vectors.sealFleetStates.map((vector) => ({
      name: `seal fleet state: ${vector.name}`,
      run: (library: E2eLibrary) => checkFleetState(library, vector),
    })),
    ...vectors.openFailures.map((vector) => ({
      name: `open failure: ${vector.name}`,
      run: (library: E2eLibrary) =>
        expectCode(
          library,
          vector.expect,
          library.openString(library.parseKey(vector.key), vector.aad as E2e.Aad, vector.sealed),
        ),
    })),
    ...vectors.passphrases.map((vector) => ({
      name: `passphrase: ${vector.name}`,
      run: async (library: E2eLibrary) =>
        same("key", await library.deriveKeyFromPassphraseV1(vector.passphrase), vector.key),
    })),
    ...vectors.passphraseFailures.map((vector) => ({
      name: `passphrase failure: ${vector.name}`,
      run: (library: E2eLibrary) =>
        expectCode(library, vector.expect, library.deriveKeyFromPassphraseV1(vector.passphrase)),
    })),
    ...vectors.passphrasesV2.map((vector) => ({
      name: `passphrase v2: ${vector.name}`,
      run: async (library: E2eLibrary) => {
        const key = await library.deriveKeyFromPassphrase(vector.passphrase, vector.accountId);
        same("key", key, vector.key);
        same("key id", await library.keyId(key), vector.keyId);
      },
    })),
    ...vectors.passphraseV2Failures.map((vector) => ({
      name: `passphrase v2 failure: ${vector.name}`,
      run: (library: E2eLibrary) =>
        expectCode(
          library,
          vector.expect,
          library.deriveKeyFromPassphrase(vector.passphrase, vector.accountId),
        ),
    })),
    ...vectors.keyIds.map((vector) => ({
      name: `key id: ${vector.name}`,
      run: async (library: E2eLibrary) => {
        const key = library.parseKey(vector.key);
        same("key id", await library.keyId(key), vector.keyId);
        same("formatKey(keyBytes(key))", library.formatKey(library.keyBytes(key)), vector.key);
      },
    })),
    ...vectors.invalidKeys.map((vector) => ({
      name: `invalid key: ${vector.name}`,
      run: (library: E2eLibrary) =>
        expectCode(library, vector.expect, async () => library.parseKey(vector.text)),
    })),
  ];
}

/**
 * Runs every check in order and reports each, never throwing; what the browser page returns.
 * @public (the browser test loads this file in the page and calls it there)
 */
export async function runChecks(library: E2eLibrary, vectors: TestVectors): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of vectorChecks(vectors)) {
    try {
      await check.run(library);
      results.push({ name: check.name, ok: true });
    } catch (error) {
      results.push({ name: check.name, ok: false, error: String(error) });
    }
  }
  return results;
}

async function checkFormat(library: E2eLibrary, format: TestVectors["format"]): Promise<void> {
  same("KEY_PREFIX", library.KEY_PREFIX, format.keyPrefix);
  same("KEY_BYTES", library.KEY_BYTES, format.keyBytes);
  same("IV_BYTES", library.IV_BYTES, format.ivBytes);
  same("TAG_BYTES", library.TAG_BYTES, format.tagBytes);
  same("SEALED_VERSION", library.SEALED_VERSION, format.sealedVersion);
  same("KEY_ID_LABEL", library.KEY_ID_LABEL, format.keyIdLabel);
  same("PASSPHRASE_SALT", library.PASSPHRASE_SALT, format.passphraseSalt);
  same("PBKDF2_ITERATIONS", library.PBKDF2_ITERATIONS, format.pbkdf2Iterations);
  same("PASSPHRASE_MIN_CODE_POINTS", library.PASSPHRASE_MIN_CODE_POINTS, format.passphraseMinCodePoints);
  same("PASSPHRASE_V2_SALT_PREFIX", library.PASSPHRASE_V2_SALT_PREFIX, format.passphraseV2SaltPrefix);
  same("SCRYPT_COST", library.SCRYPT_COST, format.scryptCost);
  same("SCRYPT_BLOCK_SIZE", library.SCRYPT_BLOCK_SIZE, format.scryptBlockSize);
  same("SCRYPT_PARALLELISM", library.SCRYPT_PARALLELISM, format.scryptParallelism);
  same("PAD_MIN_BYTES", library.PAD_MIN_BYTES, format.padMinBytes);
  same("PAD_LINEAR_FROM_BYTES", library.PAD_LINEAR_FROM_BYTES, format.padLinearFromBytes);
  same("TASK_ID_DIGEST_INFO", library.TASK_ID_DIGEST_INFO, format.taskIdDigestInfo);
  same("DEVICE_NAME_AAD", library.DEVICE_NAME_AAD, format.deviceNameAad);
  same("DEVICE_NAME_PADDED_BYTES", library.DEVICE_NAME_PADDED_BYTES, format.deviceNamePaddedBytes);
}

async function checkDeviceName(library: E2eLibrary, vector: DeviceNameVector): Promise<void> {
  const key = library.parseKey(vector.key);
  const aad = library.aad.deviceName();
  same("aad", aad, vector.aad);
  same("key id", await library.keyId(key), vector.keyId);
  const iv = fromBase64url(vector.iv);
  same("sealDeviceName", await library.sealDeviceName(key, vector.deviceName, { iv }), vector.sealed);
  same("openString", await library.openString(key, aad, vector.sealed), vector.plaintext);
  same("openDeviceName", await library.openDeviceName(key, vector.sealed), vector.deviceName);
}

async function checkFleetState(library: E2eLibrary, vector: FleetStateVector): Promise<void> {
  const key = library.parseKey(vector.key);
  const aad = library.aad.fleet(vector.computerId);
  same("aad", aad, vector.aad);
  same("key id", await library.keyId(key), vector.keyId);
  const iv = fromBase64url(vector.iv);
  const sealed = await library.sealFleetState(key, vector.computerId, vector.json, vector.padStepBytes, {
    iv,
  });
  same("sealFleetState", sealed, vector.sealed);
  same("openString", await library.openString(key, aad, vector.sealed), vector.plaintext);
  const opened = await library.openFleetState(key, vector.computerId, vector.sealed);
  same("openFleetState", JSON.stringify(opened), JSON.stringify(vector.json));
  same("sealedPlaintextBytes", library.sealedPlaintextBytes(vector.sealed), vector.plaintextBytes);
}

async function checkPadded(library: E2eLibrary, vector: SealVector & { json: unknown }): Promise<void> {
  const key = library.parseKey(vector.key);
  const aad = library.aadFor(vector.purpose, vector.id);
  same("aad", aad, vector.aad);
  const iv = fromBase64url(vector.iv);
  same("sealJson padded", await library.sealJson(key, aad, vector.json, { iv, pad: true }), vector.sealed);
  same("openString", await library.openString(key, aad, vector.sealed), vector.plaintext);
  same(
    "openJson",
    JSON.stringify(await library.openJson(key, aad, vector.sealed)),
    JSON.stringify(vector.json),
  );
}

async function checkSeal(library: E2eLibrary, vector: SealVector): Promise<void> {
  await checkSealed(library, vector, library.aadFor(vector.purpose, vector.id));
}

async function checkSealed(
  library: E2eLibrary,
  vector: Omit<SealVector, "purpose">,
  aad: E2e.Aad,
): Promise<void> {
  const key = library.parseKey(vector.key);
  same("aad", aad, vector.aad);
  same("key id", await library.keyId(key), vector.keyId);
  const iv = fromBase64url(vector.iv);
  same("sealString", await library.sealString(key, aad, vector.plaintext, { iv }), vector.sealed);
  same("openString", await library.openString(key, aad, vector.sealed), vector.plaintext);
  if (vector.json !== undefined) {
    same("JSON.stringify(json)", JSON.stringify(vector.json), vector.plaintext);
    same("sealJson", await library.sealJson(key, aad, vector.json, { iv }), vector.sealed);
    const opened = await library.openJson(key, aad, vector.sealed);
    same("openJson", JSON.stringify(opened), JSON.stringify(vector.json));
  }
}

async function expectCode(
  library: E2eLibrary,
  code: E2e.E2eErrorCode,
  action: Promise<unknown> | (() => Promise<unknown>),
): Promise<void> {
  let outcome: unknown;
  try {
    outcome = await (typeof action === "function" ? action() : action);
  } catch (error) {
    if (!library.isE2eError(error, code)) throw new Error(`expected E2eError ${code}, got ${String(error)}`);
    return;
  }
  throw new Error(`expected E2eError ${code}, but it succeeded with ${JSON.stringify(outcome)}`);
}

function same(what: string, actual: unknown, expected: unknown): void {
  if (actual !== expected) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

// Independent of the package's own decoder: atob accepts base64 without padding.
function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
