import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, toolInputDigest } from "./tool-input-digest.js";

describe("toolInputDigest", () => {
  it("is the SHA-256 hex of the canonical JSON, keys sorted at every depth", () => {
    const input = { z: 1, a: { y: [{ d: 1, c: 2 }], b: "x" } };

    expect(canonicalJson(input)).toBe('{"a":{"b":"x","y":[{"c":2,"d":1}]},"z":1}');
    expect(toolInputDigest(input)).toBe(createHash("sha256").update(canonicalJson(input)).digest("hex"));
  });

  it("does not depend on key order, and tells any change of a value", () => {
    const command = { command: "rm -rf build", description: "Clean" };

    expect(toolInputDigest({ description: "Clean", command: "rm -rf build" })).toBe(toolInputDigest(command));
    expect(toolInputDigest({ ...command, command: "rm -rf /" })).not.toBe(toolInputDigest(command));
    expect(toolInputDigest([1, 2])).not.toBe(toolInputDigest([2, 1]));
  });

  it("takes an absent input as null", () => {
    expect(canonicalJson(undefined)).toBe("null");
    expect(toolInputDigest(undefined)).toBe(toolInputDigest(null));
  });
});
