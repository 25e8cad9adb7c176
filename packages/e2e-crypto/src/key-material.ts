import { type AesGcm, createAesGcm } from "./aes-gcm.js";
import type { E2eKey } from "./key.js";
import { keyBytes } from "./key.js";
import { keyIdOfBytes } from "./key-id.js";

/** What sealing and opening need from a key, computed once per key. */
export interface KeyMaterial {
  readonly cipher: AesGcm;
  readonly keyId: string;
}

/** A process holds one or two keys in practice; the bound only caps a caller cycling through many. */
export const KEY_CACHE_MAX_ENTRIES = 16;

// Keyed by the key text (keys are strings), in insertion order so the oldest entry is evicted first.
const cache = new Map<string, Promise<KeyMaterial>>();

/**
 * The AES-GCM cipher and key id of a key, imported once and cached, so repeated seals do not re-import. Throws `invalid_key` for a bad key text.
 */
export function keyMaterial(key: E2eKey): Promise<KeyMaterial> {
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const bytes = keyBytes(key);
  const pending = importKeyMaterial(bytes);
  cache.set(key, pending);
  if (cache.size > KEY_CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  // A failed import must not poison the cache; the caller still sees the rejection.
  pending.catch(() => {
    if (cache.get(key) === pending) cache.delete(key);
  });
  return pending;
}

async function importKeyMaterial(bytes: Uint8Array<ArrayBuffer>): Promise<KeyMaterial> {
  const [cipher, keyId] = await Promise.all([createAesGcm(bytes), keyIdOfBytes(bytes)]);
  bytes.fill(0);
  return { cipher, keyId };
}
