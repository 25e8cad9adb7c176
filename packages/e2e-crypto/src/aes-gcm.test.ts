import { describe, expect, it } from "vitest";
import { createAesGcm, DEFAULT_AES_GCM_BACKEND } from "./aes-gcm.js";

const rawKey = () => new Uint8Array(32).map((_, index) => index * 7);
const iv = new Uint8Array(12).fill(9);
const aad = new TextEncoder().encode("ringback/v1/report/event-1");
const plaintext = new TextEncoder().encode("a report — 报告 ✓".repeat(5000));

describe("AES-256-GCM backends", () => {
  it("uses Node's own cipher in Node", () => {
    expect(DEFAULT_AES_GCM_BACKEND).toBe("node");
  });

  it("gives byte-identical ciphertext with Node's cipher and with WebCrypto, and each opens the other's", async () => {
    const node = await createAesGcm(rawKey(), "node");
    const web = await createAesGcm(rawKey(), "webcrypto");
    const fromNode = await node.encrypt(iv, aad, plaintext);
    const fromWeb = await web.encrypt(iv, aad, plaintext);
    expect(fromNode).toEqual(fromWeb);
    expect(fromNode.length).toBe(plaintext.length + 16);
    expect(await web.decrypt(iv, aad, fromNode)).toEqual(plaintext);
    expect(await node.decrypt(iv, aad, fromWeb)).toEqual(plaintext);
  });

  it.each(["node", "webcrypto"] as const)(
    "%s: rejects altered data, another aad, and a cut tag",
    async (backend) => {
      const cipher = await createAesGcm(rawKey(), backend);
      const sealed = await cipher.encrypt(iv, aad, plaintext);
      const altered = sealed.slice();
      altered[10] = (altered[10] ?? 0) ^ 1;
      await expect(cipher.decrypt(iv, aad, altered)).rejects.toThrow();
      await expect(
        cipher.decrypt(iv, new TextEncoder().encode("ringback/v1/report/event-2"), sealed),
      ).rejects.toThrow();
      await expect(cipher.decrypt(iv, aad, sealed.slice(0, 15))).rejects.toThrow();
    },
  );

  it("keeps its own copy of the key, so the caller may wipe the bytes", async () => {
    const bytes = rawKey();
    const cipher = await createAesGcm(bytes, "node");
    const before = await cipher.encrypt(iv, aad, plaintext);
    bytes.fill(0);
    expect(await cipher.encrypt(iv, aad, plaintext)).toEqual(before);
  });
});
