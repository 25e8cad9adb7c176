import { generateKey } from "@ringback/e2e-crypto";
import type { KeyValueStore } from "../app/storage/key-value.js";
import { createMemoryStore } from "../app/storage/memory-key-value.js";
import { E2E_KEY_KEY, IDENTITY_KEY } from "../shared/storage-keys.js";

/** The relay every worker test's device is paired with. */
export const TEST_RELAY_URL = "https://relay.example";

/** For the worker's tests: a device's storage as pairing leaves it (identity and end-to-end key). */
export async function pairedTestStore(key: string = generateKey()): Promise<KeyValueStore> {
  const store = createMemoryStore();
  await store.set(IDENTITY_KEY, {
    serverUrl: TEST_RELAY_URL,
    accountId: "acc_1",
    deviceId: "dev_phone",
    deviceToken: "token-phone",
  });
  await store.set(E2E_KEY_KEY, key);
  return store;
}
