import type { KeyValueStore } from "@ringback/client";
import { createMemoryStore, INTERFACE_LANGUAGE_KEY } from "@ringback/client";
import { NOTIFICATION_TEXTS } from "@ringback/client/texts";
import { describe, expect, it } from "vitest";
import { loadNotificationTexts, notificationTexts } from "./notification-texts.js";

/** A device storage that cannot be read (IndexedDB failing, as in some private modes). */
const unreadableStore: KeyValueStore = {
  get: async () => {
    throw new DOMException("The database connection is closing.", "InvalidStateError");
  },
  set: async () => undefined,
  delete: async () => undefined,
  keys: async () => [],
};

async function storeWithChoice(choice: unknown): Promise<KeyValueStore> {
  const store = createMemoryStore();
  await store.set(INTERFACE_LANGUAGE_KEY, choice);
  return store;
}

describe("the service worker's notification texts", () => {
  it("are Chinese when the device's interface language is Chinese, whatever the browser prefers", async () => {
    const texts = await loadNotificationTexts(await storeWithChoice("zh"), ["en-US"]);
    expect(texts).toBe(NOTIFICATION_TEXTS.zh);
    expect(texts.missedCallTitle("Nightly export")).toBe("未接来电：Nightly export");
  });

  it("are English when the device's interface language is English, whatever the browser prefers", async () => {
    expect(await loadNotificationTexts(await storeWithChoice("en"), ["zh-CN"])).toBe(NOTIFICATION_TEXTS.en);
  });

  it("follow a Chinese system when the interface language follows the system", async () => {
    expect(await loadNotificationTexts(await storeWithChoice("system"), ["zh-CN", "en-US"])).toBe(
      NOTIFICATION_TEXTS.zh,
    );
    expect(await loadNotificationTexts(await storeWithChoice("system"), ["fr-FR", "zh-CN"])).toBe(
      NOTIFICATION_TEXTS.en,
    );
  });

  it("follow the system when nothing is stored, or something the page never writes", async () => {
    expect(await loadNotificationTexts(createMemoryStore(), ["zh-Hant-TW"])).toBe(NOTIFICATION_TEXTS.zh);
    expect(await loadNotificationTexts(createMemoryStore(), ["en-GB"])).toBe(NOTIFICATION_TEXTS.en);
    expect(await loadNotificationTexts(await storeWithChoice("klingon"), ["zh"])).toBe(NOTIFICATION_TEXTS.zh);
  });

  it("are English when the device's storage cannot be read, even on a Chinese system", async () => {
    const texts = await loadNotificationTexts(unreadableStore, ["zh-CN"]);
    expect(texts).toBe(NOTIFICATION_TEXTS.en);
    expect(texts.missedCallTitle("Nightly export")).toBe("Missed call: Nightly export");
  });

  it("are picked from the choice alone: null (unread) is English, a choice resolves against the languages", () => {
    expect(notificationTexts(null, ["zh-CN"])).toBe(NOTIFICATION_TEXTS.en);
    expect(notificationTexts("zh", [])).toBe(NOTIFICATION_TEXTS.zh);
    expect(notificationTexts("system", ["zh-CN"])).toBe(NOTIFICATION_TEXTS.zh);
    expect(notificationTexts("system", [])).toBe(NOTIFICATION_TEXTS.en);
  });
});
