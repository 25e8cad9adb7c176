/** Constants of the end-to-end format, version 1 (ARCHITECTURE.md "End-to-end format (version 1)"). */

/** Prefix of a key's text form. */
export const KEY_PREFIX = "rbk1_";
/** Raw key length: AES-256. */
export const KEY_BYTES = 32;
/** AES-GCM nonce length, random per message. */
export const IV_BYTES = 12;
/** AES-GCM tag length, appended to the ciphertext. */
export const TAG_BYTES = 16;
/** First field of a sealed string. */
export const SEALED_VERSION = "e2e1";
/** Key ids are this many bytes of SHA-256, written as lowercase hex. */
export const KEY_ID_BYTES = 8;
/** Domain-separation label hashed before the key to make its id. */
export const KEY_ID_LABEL = "ringback/e2e/v1/key-id";
/** Passphrase keys, version 1 (made before version 2; still read): fixed application salt. */
export const PASSPHRASE_SALT = "ringback/e2e/v1";
/** Passphrase keys, version 1: PBKDF2-SHA256 iterations. */
export const PBKDF2_ITERATIONS = 600_000;
/** Passphrase keys, version 2: the scrypt salt is the UTF-8 of this followed by the account id. */
export const PASSPHRASE_V2_SALT_PREFIX = "ringback/e2e/v2/passphrase/";
/** Passphrase keys, version 2: scrypt's cost N (128 MiB of memory with r = 8). */
export const SCRYPT_COST = 131_072;
/** Passphrase keys, version 2: scrypt's block size r. */
export const SCRYPT_BLOCK_SIZE = 8;
/** Passphrase keys, version 2: scrypt's parallelism p. */
export const SCRYPT_PARALLELISM = 1;
/** Minimum passphrase length, in code points after NFC normalisation. */
export const PASSPHRASE_MIN_CODE_POINTS = 12;
