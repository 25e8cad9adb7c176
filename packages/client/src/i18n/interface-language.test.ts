import { describe, expect, it } from "vitest";
import { resolveInterfaceLanguage } from "./interface-language.js";

describe("interface language", () => {
  it("follows the system: Chinese when the preferred language is Chinese", () => {
    expect(resolveInterfaceLanguage("system", ["zh-CN", "en-US"])).toBe("zh");
    expect(resolveInterfaceLanguage("system", ["zh-Hant-TW"])).toBe("zh");
    expect(resolveInterfaceLanguage("system", ["zh"])).toBe("zh");
  });

  it("follows the system: English for any other preferred language, or none", () => {
    expect(resolveInterfaceLanguage("system", ["fr-FR", "zh-CN"])).toBe("en");
    expect(resolveInterfaceLanguage("system", [])).toBe("en");
  });

  it("keeps an explicit choice whatever the system prefers", () => {
    expect(resolveInterfaceLanguage("en", ["zh-CN"])).toBe("en");
    expect(resolveInterfaceLanguage("zh", ["en-US"])).toBe("zh");
  });
});
