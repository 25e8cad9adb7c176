import { describe, expect, it } from "vitest";
import { languageName } from "../src/index.js";

describe("languageName", () => {
  it("names a language-region tag in English words", () => {
    expect(languageName("es-MX")).toBe("Mexican Spanish");
    expect(languageName("pt-BR")).toBe("Brazilian Portuguese");
    expect(languageName("es-CL")).toBe("Spanish (Chile)");
  });

  it("names it in another language on request", () => {
    expect(languageName("es-MX", "es")).toBe("español de México");
  });

  it("returns a malformed tag as written", () => {
    expect(languageName("not a tag!")).toBe("not a tag!");
  });
});
