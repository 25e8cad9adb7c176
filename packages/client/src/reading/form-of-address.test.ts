import { FORM_OF_ADDRESS_PLACEHOLDER } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { addressed, defaultFormOfAddress } from "./form-of-address.js";

const text = `${FORM_OF_ADDRESS_PLACEHOLDER}, the build is done. Shall I merge, ${FORM_OF_ADDRESS_PLACEHOLDER}?`;

describe("form of address", () => {
  it("replaces every placeholder with the user's form of address", () => {
    expect(addressed(text, "Dr. Lee", "en-US")).toBe("Dr. Lee, the build is done. Shall I merge, Dr. Lee?");
  });

  it("uses a generic title in the brief's language when none is set", () => {
    expect(addressed(text, null, "en-GB")).toBe("boss, the build is done. Shall I merge, boss?");
    expect(addressed(FORM_OF_ADDRESS_PLACEHOLDER, "  ", "zh-CN")).toBe(defaultFormOfAddress("zh-CN"));
  });

  it("falls back to the English title for a language without its own", () => {
    expect(defaultFormOfAddress("fr-FR")).toBe(defaultFormOfAddress("en-US"));
  });

  it("leaves text without a placeholder unchanged", () => {
    expect(addressed("All tests pass.", "Sam", "en-US")).toBe("All tests pass.");
  });
});
