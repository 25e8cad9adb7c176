import { afterEach, describe, expect, it, vi } from "vitest";
import { aad } from "./aad.js";
import { generateKey } from "./key.js";
import { KEY_CACHE_MAX_ENTRIES } from "./key-material.js";
import { openString } from "./open.js";
import { sealString } from "./seal.js";

// In Node the key is imported by Node's own crypto (see aes-gcm.ts).
const spyOnKeyImport = () => vi.spyOn(process.getBuiltinModule("node:crypto"), "createSecretKey");

describe("key material cache", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("imports a key once for many seals and opens, even when they start together", async () => {
    const importKey = spyOnKeyImport();
    const key = generateKey();
    const reportAad = aad.report("evt-1");
    const sealed = await Promise.all(Array.from({ length: 20 }, () => sealString(key, reportAad, "hello")));
    for (const text of sealed) expect(await openString(key, reportAad, text)).toBe("hello");
    expect(importKey).toHaveBeenCalledTimes(1);
  });

  it("keeps working past its bound, re-importing an evicted key", async () => {
    const importKey = spyOnKeyImport();
    const keys = Array.from({ length: KEY_CACHE_MAX_ENTRIES + 1 }, generateKey);
    const replyAad = aad.reply("evt-1");
    const sealed = [];
    for (const key of keys) sealed.push(await sealString(key, replyAad, key.slice(-4)));
    expect(await openString(keys[0]!, replyAad, sealed[0]!)).toBe(keys[0]!.slice(-4));
    expect(importKey).toHaveBeenCalledTimes(keys.length + 1);
  });
});
