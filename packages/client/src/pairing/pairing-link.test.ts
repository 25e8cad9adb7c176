import { generateKey } from "@ringback/e2e-crypto";
import { describe, expect, it } from "vitest";
import {
  formatPairingLink,
  hasPairingFragment,
  normaliseServerUrl,
  parsePairingLink,
} from "./pairing-link.js";

const key = generateKey();

describe("pairing link", () => {
  it("round-trips server address, code and key", () => {
    const link = formatPairingLink({ serverUrl: "https://relay.example.com/", code: "042917358164", key });
    expect(parsePairingLink(link)).toEqual({
      serverUrl: "https://relay.example.com",
      code: "042917358164",
      key,
    });
  });

  it("keeps the key and the code in the fragment, never in the path or query the server sees", () => {
    const link = formatPairingLink({ serverUrl: "https://relay.example.com", code: "042917358164", key });
    const url = new URL(link);
    expect(url.pathname + url.search).toBe("/");
    expect(url.hash).toContain(key);
    expect(url.hash).toContain("pair=042917358164");
  });

  it("uses the link's own address as the relay when the fragment names no server", () => {
    const parsed = parsePairingLink(`http://127.0.0.1:8787/#pair=123456789012&key=${key}`);
    expect(parsed.serverUrl).toBe("http://127.0.0.1:8787");
  });

  it("may open a web app hosted apart from the relay", () => {
    const link = formatPairingLink(
      { serverUrl: "https://relay.example.com", code: "123456789012", key },
      "https://app.example.org/ringback/",
    );
    expect(link.startsWith("https://app.example.org/ringback/#")).toBe(true);
    expect(parsePairingLink(link).serverUrl).toBe("https://relay.example.com");
  });

  it("accepts a pasted link with spaces around it", () => {
    expect(parsePairingLink(`  http://127.0.0.1:8787/#pair=123456789012&key=${key}\n`).code).toBe(
      "123456789012",
    );
  });

  it.each([
    ["no fragment", "https://relay.example.com/", "not_a_pairing_link"],
    ["no key", "https://relay.example.com/#pair=123456", "not_a_pairing_link"],
    ["a 5-digit code", `https://relay.example.com/#pair=12345&key=${key}`, "invalid_code"],
    ["an old 6-digit code", `https://relay.example.com/#pair=123456&key=${key}`, "invalid_code"],
    ["a broken key", "https://relay.example.com/#pair=123456789012&key=rbk1_short", "invalid_key"],
    [
      "a server that is not http",
      `https://x.example/#pair=123456789012&key=${key}&server=ftp%3A%2F%2Fx`,
      "invalid_server",
    ],
  ])("refuses a link with %s", (_, text, problem) => {
    expect(() => parsePairingLink(text)).toThrowError(expect.objectContaining({ problem }));
  });

  it("tells a pairing address from an ordinary one", () => {
    expect(hasPairingFragment(`http://127.0.0.1:8787/#pair=123456789012&key=${key}`)).toBe(true);
    expect(hasPairingFragment("http://127.0.0.1:8787/#settings")).toBe(false);
    expect(hasPairingFragment("http://127.0.0.1:8787/")).toBe(false);
  });

  it("normalises a relay address", () => {
    expect(normaliseServerUrl(" https://relay.example.com/base/ ")).toBe("https://relay.example.com/base");
    expect(normaliseServerUrl("http://127.0.0.1:8787/index.html")).toBe("http://127.0.0.1:8787");
  });
});
