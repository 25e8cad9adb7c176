import { describe, expect, it } from "vitest";
import { CORE_TEXTS } from "../i18n/texts/core.js";
import { deviceLabel } from "./device-label.js";

describe("a device as a screen names it", () => {
  it("shows its name, else its kind, in each language", () => {
    expect(deviceLabel({ name: "Pixel", kind: "phone" }, CORE_TEXTS.en)).toBe("Pixel");
    expect(deviceLabel({ name: null, kind: "phone" }, CORE_TEXTS.en)).toBe("a phone");
    expect(deviceLabel({ name: null, kind: "computer" }, CORE_TEXTS.en)).toBe("a computer");
    expect(deviceLabel({ name: null, kind: "browser" }, CORE_TEXTS.en)).toBe("a browser");
    expect(deviceLabel({ name: null, kind: "phone" }, CORE_TEXTS.zh)).toBe("手机");
  });
});
