import { generateKey } from "@ringback/e2e-crypto";
import { describe, expect, it } from "vitest";
import { LocalSettings } from "./local-settings.js";
import { createMemoryStore } from "./memory-key-value.js";

const identity = {
  serverUrl: "http://127.0.0.1:8787",
  accountId: "acc1",
  deviceId: "dev1",
  deviceToken: "tok",
};

describe("local settings", () => {
  it("keeps the pairing (identity and key) and forgets it when the device is removed", async () => {
    const store = createMemoryStore();
    const settings = new LocalSettings(store);
    const key = generateKey();
    await settings.savePairing({ identity, key });
    expect(await settings.loadPairing()).toEqual({ identity, key });
    await settings.saveLastEventId("42");
    await settings.clearPairing();
    expect(await settings.loadPairing()).toBeNull();
    expect(await settings.loadLastEventId()).toBeNull();
  });

  it("treats a pairing without a valid key as no pairing", async () => {
    const store = createMemoryStore();
    await store.set("identity", identity);
    await store.set("e2eKey", "rbk1_broken");
    expect(await new LocalSettings(store).loadPairing()).toBeNull();
  });

  it("discards an old shared secret stored by older versions", async () => {
    const store = createMemoryStore();
    await store.set("sharedSecret", "old");
    await new LocalSettings(store).discardLegacy();
    expect(await store.keys()).toEqual([]);
  });
});
