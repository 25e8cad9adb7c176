import type { RelayConfig } from "../relay-config.js";
import type { RelayStore } from "../store/store.js";
import { codeDigits, drawClaimCode, hashSecret } from "./secrets.js";

/**
 * At start: a relay with no owner (and no open signup) gets a fresh one-time claim code, returned for the one
 * print; only its hash is stored. Otherwise any leftover code is removed and null is returned.
 */
export async function prepareClaimCode(store: RelayStore, config: RelayConfig): Promise<string | null> {
  if (config.openSignup || (await store.hasAccounts())) {
    await store.setClaimCodeHash(null);
    return null;
  }
  const code = drawClaimCode();
  await store.setClaimCodeHash(hashSecret(codeDigits(code)));
  return code;
}
