import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateKey, keyBytes } from "./key.js";
import { keyId } from "./key-id.js";

describe("keyId", () => {
  it("is the first 8 bytes of SHA-256(label || key) in lowercase hex", async () => {
    const key = generateKey();
    const expected = createHash("sha256")
      .update("ringback/e2e/v1/key-id")
      .update(keyBytes(key))
      .digest("hex")
      .slice(0, 16);
    expect(await keyId(key)).toBe(expected);
    expect(await keyId(key)).toMatch(/^[0-9a-f]{16}$/);
  });

  it("differs between keys", async () => {
    expect(await keyId(generateKey())).not.toBe(await keyId(generateKey()));
  });

  it("rejects an invalid key with invalid_key", async () => {
    await expect(keyId("rbk1_nope" as never)).rejects.toMatchObject({ code: "invalid_key" });
  });
});
