import type { VapidKeys } from "./store.js";

/** The `relay_settings` row holding the VAPID key pair (JSON), in both stores. */
export const VAPID_KEYS_SETTING = "vapid_keys";

export function parseVapidKeys(value: string): VapidKeys {
  const parsed = JSON.parse(value) as Partial<VapidKeys>;
  if (typeof parsed.publicKey !== "string" || typeof parsed.privateKey !== "string") {
    throw new Error("The stored VAPID keys are malformed.");
  }
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}
