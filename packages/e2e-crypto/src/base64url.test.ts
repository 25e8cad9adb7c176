import { describe, expect, it } from "vitest";
import { decodeBase64url, decodeInJavaScript, encodeBase64url, encodeInJavaScript } from "./base64url.js";

describe.each([
  ["with Node's Buffer", encodeBase64url, decodeBase64url],
  ["in portable JavaScript (browsers)", encodeInJavaScript, decodeInJavaScript],
])("base64url %s", (_where, encode, decode) => {
  it("matches Node's base64url for every length from 0 to 70 bytes", () => {
    for (let length = 0; length <= 70; length++) {
      const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
      const text = encode(bytes);
      expect(text).toBe(Buffer.from(bytes).toString("base64url"));
      expect(decode(text)).toEqual(bytes);
    }
  });

  it.each([
    ["padding", "AAAA="],
    ["padding of a partial chunk", "AA=="],
    ["standard alphabet +", "ab+d"],
    ["standard alphabet /", "ab/d"],
    ["whitespace", "AAAA AAAA"],
    ["a newline", "AAAA\n"],
    ["non-ASCII", "AAAé"],
    ["an impossible length", "AAAAA"],
    ["unused bits set after one byte", "AB"],
    ["unused bits set after two bytes", "AAB"],
  ])("rejects %s", (_case, text) => {
    expect(decode(text)).toBeUndefined();
  });
});
