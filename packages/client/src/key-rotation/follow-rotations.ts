import { type E2eKey, keyId } from "@ringback/e2e-crypto";
import type { KeyRotationNotice } from "@ringback/protocol";
import { isSealedUnder, openKeyRotation } from "./rotation-notice.js";

/** Where following the notices led: the key at the end, and how many rotations it took (0: none was for `key`). */
export interface FollowedKey {
  readonly key: E2eKey;
  readonly steps: number;
}

/**
 * Follows an account's rotation notices from `key`: the notice sealed under it gives the next key, the notice sealed
 * under that one the next, and so on to the newest. A device or computer that missed several rotations (offline)
 * catches up in one go; a notice under any other key (one it never held, or one it has left) is skipped, and a
 * notice that does not open is no step. A key met twice ends the walk, so no list of notices loops it.
 */
export async function followKeyRotations(
  key: E2eKey,
  notices: readonly KeyRotationNotice[],
): Promise<FollowedKey> {
  let current = key;
  let steps = 0;
  const seen = new Set<string>([await keyId(key)]);
  for (;;) {
    const currentId = await keyId(current);
    let next: E2eKey | null = null;
    for (const notice of notices) {
      if (!isSealedUnder(notice, currentId)) continue;
      next = await openKeyRotation(current, notice);
      if (next !== null) break;
    }
    if (next === null) return { key: current, steps };
    const nextId = await keyId(next);
    if (seen.has(nextId)) return { key: current, steps };
    seen.add(nextId);
    current = next;
    steps += 1;
  }
}
