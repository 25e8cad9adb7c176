import { z } from "zod";
import { E2eKeyText } from "./e2e.js";
import { RelayClientId, SealedText } from "./relay.js";

/*
 * Key rotation: when a device removes another, it makes a new account key and seals it under the key it replaces,
 * in a notice the relay keeps for the account (`POST /v1/key-rotations`). Every remaining device and computer reads
 * the notices (`GET /v1/key-rotations`) and follows them from the key it holds; the removed device's token is revoked
 * first, so the relay never serves it one. A computer also takes a notice through the settings path
 * (`POST /key-rotation`, relayed and sealed), so it moves at once.
 */

/** The notices the relay keeps per account (the oldest go first): a device offline through more must pair again. */
export const KEY_ROTATIONS_KEPT_MAX = 32;

/**
 * A rotation notice: the new key sealed under the key it replaces (AAD `ringback/v1/key-rotation/<rotationId>`). The
 * sealed text names the old key's id, so a reader knows which notice follows its own key.
 */
export const KeyRotationNotice = z.object({ rotationId: RelayClientId, sealed: SealedText });
export type KeyRotationNotice = z.infer<typeof KeyRotationNotice>;

/** What a notice holds, sealed: the new key, when it was made, and which device's removal made it (if one did). */
export const KeyRotationPlaintext = z.object({
  key: E2eKeyText,
  rotatedAt: z.iso.datetime(),
  removedDeviceId: z.string().max(128).nullable(),
});
export type KeyRotationPlaintext = z.infer<typeof KeyRotationPlaintext>;

/** `GET /v1/key-rotations` (200): the account's notices, oldest first. */
export const KeyRotationList = z.object({
  rotations: z.array(KeyRotationNotice.extend({ createdAt: z.string() })),
});
export type KeyRotationList = z.infer<typeof KeyRotationList>;

/**
 * `POST /v1/key-rotations` (201, or 200 for a repeat of the same rotation id). 409 `key_rotation_conflict` when the
 * account already has a notice from the same key: another device rotated first; follow it and rotate again.
 */
export const KeyRotationPosted = z.object({ rotationId: RelayClientId, createdAt: z.string() });
export type KeyRotationPosted = z.infer<typeof KeyRotationPosted>;

/** `POST /key-rotation` on the daemon (relayed): whether this computer moved, and its key's id now. */
export const KeyRotationApplied = z.object({ rotated: z.boolean(), keyId: z.string() });
export type KeyRotationApplied = z.infer<typeof KeyRotationApplied>;
