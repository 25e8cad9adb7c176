import {
  aad,
  type E2eKey,
  generateKey,
  openJson,
  parseKey,
  sealedKeyId,
  sealJson,
} from "@ringback/e2e-crypto";
import { type KeyRotationNotice, KeyRotationPlaintext } from "@ringback/protocol";
import { newRequestId } from "../relay/daemon-request.js";

/** A new account key, and the notice that hands it to every holder of the key it replaces. */
export interface KeyRotation {
  readonly notice: KeyRotationNotice;
  /** The key the notice is sealed under (the one it replaces). */
  readonly previous: E2eKey;
  readonly next: E2eKey;
}

/** A fresh random key sealed under `previous` (AAD `ringback/v1/key-rotation/<rotationId>`). */
export async function sealKeyRotation(
  previous: E2eKey,
  options: { removedDeviceId: string | null; now?: Date },
): Promise<KeyRotation> {
  const next = generateKey();
  const rotationId = newRequestId();
  const plaintext: KeyRotationPlaintext = {
    key: next,
    rotatedAt: (options.now ?? new Date()).toISOString(),
    removedDeviceId: options.removedDeviceId,
  };
  const sealed = await sealJson(previous, aad.keyRotation(rotationId), plaintext);
  return { notice: { rotationId, sealed }, previous, next };
}

/** True when `notice` is sealed under a key with this id (it says so in plain: the id is not a secret). */
export function isSealedUnder(notice: KeyRotationNotice, keyIdText: string): boolean {
  try {
    return sealedKeyId(notice.sealed) === keyIdText;
  } catch {
    return false;
  }
}

/** The key a notice hands over, or null when it does not open with `key` or holds no key. */
export async function openKeyRotation(key: E2eKey, notice: KeyRotationNotice): Promise<E2eKey | null> {
  try {
    const parsed = KeyRotationPlaintext.safeParse(
      await openJson(key, aad.keyRotation(notice.rotationId), notice.sealed),
    );
    return parsed.success ? parseKey(parsed.data.key) : null;
  } catch {
    return null;
  }
}
