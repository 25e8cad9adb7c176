import { describe, expect, it } from "vitest";
import { FALLBACK_LANGUAGE, systemLanguage } from "./system-language.js";

describe("systemLanguage", () => {
  it("reads the POSIX locale: LC_ALL, then LC_MESSAGES, then LANG", () => {
    expect(systemLanguage({ LC_ALL: "es_MX.UTF-8", LC_MESSAGES: "fr_FR", LANG: "de_DE" }, "ja-JP")).toBe(
      "es-MX",
    );
    expect(systemLanguage({ LC_MESSAGES: "fr_CA.UTF-8", LANG: "de_DE" }, "ja-JP")).toBe("fr-CA");
    expect(systemLanguage({ LANG: "de_AT.UTF-8@euro" }, "ja-JP")).toBe("de-AT");
    expect(systemLanguage({ LANG: "zh_Hant_TW" }, "ja-JP")).toBe("zh-Hant-TW");
  });

  it("falls back to the runtime's locale when the POSIX one has no region or is C", () => {
    expect(systemLanguage({ LANG: "C.UTF-8" }, "ja-JP")).toBe("ja-JP");
    expect(systemLanguage({ LC_ALL: "POSIX" }, "pt-BR-u-hc-h23")).toBe("pt-BR");
    expect(systemLanguage({ LANG: "es" }, "it-IT")).toBe("it-IT");
  });

  it("ends at en-US", () => {
    expect(systemLanguage({}, "fr")).toBe(FALLBACK_LANGUAGE);
    expect(systemLanguage({ LANG: "garbage!!" }, "und")).toBe("en-US");
  });
});
