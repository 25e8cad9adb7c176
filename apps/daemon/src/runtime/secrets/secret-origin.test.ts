import { describe, expect, it } from "vitest";
import { isSameOrigin, originOf } from "./secret-origin.js";

describe("a secret's origin", () => {
  it.each([
    ["https://api.example/v1", "https://api.example/other/path", true],
    ["https://api.example/v1", "https://API.example:443/v1", true],
    ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v2", true],
    ["https://api.example/v1", "http://api.example/v1", false],
    ["https://api.example/v1", "https://api.example:8443/v1", false],
    ["https://api.example/v1", "https://evil.example/v1", false],
    ["https://api.example/v1", "https://api.example.evil.example/v1", false],
    ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11435/v1", false],
  ])("%s and %s: same origin is %s", (saved, requested, expected) => {
    expect(isSameOrigin(saved, requested)).toBe(expected);
  });

  it("has no origin for what is not an http(s) address, so nothing is the same as it", () => {
    expect(originOf("ftp://api.example/")).toBeNull();
    expect(originOf(undefined)).toBeNull();
    expect(isSameOrigin(undefined, undefined)).toBe(false);
    expect(isSameOrigin("not an address", "not an address")).toBe(false);
  });
});
