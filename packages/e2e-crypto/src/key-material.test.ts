import { afterEach, describe, expect, it, vi } from "vitest";
import { aad } from "./aad.js";
import { generateKey } from "./key.js";
import { KEY_CACHE_MAX_ENTRIES } from "./key-material.js";
import { openString } from "./open.js";
import { sealString } from "./seal.js";

describe("key material cache", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("imports a key once for many seals and opens, even when they start together", async () => {
    const importKey = vi.spyOn(globalThis.crypto.subtle, "importKey");
    const key = generateKey();
    const reportAad = aad.report("evt-1");
    const sealed = await Promise.all(Array.from({ length: 20 }, () => sealString(key, reportAad, "hello")));
    for (const text of sealed) expect(await openString(key, reportAad, text)).toBe("hello");
    expect(importKey).toHaveBeenCalledTimes(1);
    expect(importKey.mock.calls[0]?.[3]).toBe(false);
  });

  it("keeps working past its bound, re-importing an evicted key", async () => {
    const importKey = vi.spyOn(globalThis.crypto.subtle, "importKey");
    const keys = Array.from({ length: KEY_CACHE_MAX_ENTRIES + 1 }, generateKey);
    const replyAad = aad.reply("evt-1");
    const sealed = [];
    for (const key of keys) sealed.push(await sealString(key, replyAad, key.slice(-4)));
    expect(await openString(keys[0]!, replyAad, sealed[0]!)).toBe(keys[0]!.slice(-4));
    expect(importKey).toHaveBeenCalledTimes(keys.length + 1);
  });
});
