import { encodeBase64url } from "./base64url.js";
import type { E2eKey } from "./key.js";
import { keyBytes } from "./key.js";

/** HKDF-SHA256 info of the key that hashes tracker task ids (no salt: the input is already a uniform random key). */
export const TASK_ID_DIGEST_INFO = "ringback/e2e/v1/task-id";

const encoder = new TextEncoder();

/**
 * A tracker task id as the relay may see it: HMAC-SHA256 under a key derived from the end-to-end key (HKDF-SHA256,
 * info `TASK_ID_DIGEST_INFO`), base64url. Every computer of an account holds the same key, so the same task gives the
 * same digest and still rings once; the relay can neither read the id nor check a guess of it.
 */
export async function taskIdDigest(key: E2eKey, taskId: string): Promise<string> {
  const { subtle } = globalThis.crypto;
  const material = await subtle.importKey("raw", keyBytes(key), "HKDF", false, ["deriveKey"]);
  const hmacKey = await subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(TASK_ID_DIGEST_INFO) },
    material,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  );
  return encodeBase64url(new Uint8Array(await subtle.sign("HMAC", hmacKey, encoder.encode(taskId))));
}
