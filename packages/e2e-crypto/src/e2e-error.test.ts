import { describe, expect, it } from "vitest";
import { E2eError, isE2eError } from "./e2e-error.js";

describe("E2eError", () => {
  it("carries its code, name and cause", () => {
    const cause = new Error("inner");
    const error = new E2eError("corrupted", "bad", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("E2eError");
    expect(error.code).toBe("corrupted");
    expect(error.cause).toBe(cause);
  });

  it("is recognised by its brand, optionally with a code", () => {
    const error = new E2eError("key_mismatch", "other key");
    expect(isE2eError(error)).toBe(true);
    expect(isE2eError(error, "key_mismatch")).toBe(true);
    expect(isE2eError(error, "corrupted")).toBe(false);
  });

  it.each([
    ["a plain Error", new Error("corrupted")],
    ["a look-alike object", { name: "E2eError", code: "corrupted" }],
    ["null", null],
    ["a string", "corrupted"],
  ])("does not take %s for an E2eError", (_case, value) => {
    expect(isE2eError(value)).toBe(false);
  });
});
