import { KEY_ID_BYTES, KEY_ID_LABEL } from "./format.js";
import type { E2eKey } from "./key.js";
import { keyBytes } from "./key.js";

const labelBytes = new TextEncoder().encode(KEY_ID_LABEL);

/** Key id of raw key bytes: SHA-256(label || key), first 8 bytes, lowercase hex. */
export async function keyIdOfBytes(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const input = new Uint8Array(labelBytes.length + bytes.length);
  input.set(labelBytes);
  input.set(bytes, labelBytes.length);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", input));
  let hex = "";
  for (const byte of digest.subarray(0, KEY_ID_BYTES)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * The 16-hex-character id written in every sealed string. It tells "sealed with another key" from "corrupted";
 * it is not a secret, and it is not meant for users.
 */
export async function keyId(key: E2eKey): Promise<string> {
  return keyIdOfBytes(keyBytes(key));
}
