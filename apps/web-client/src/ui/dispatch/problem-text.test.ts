import { CORE_TEXTS, DISPATCH_TEXTS, ERROR_CODE_TEXTS, INTERFACE_LANGUAGES } from "@ringback/client/texts";
import { ERROR_CODES } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { problemText } from "./problem-text.js";

const RAW = "tracker answered 502: upstream connect error or disconnect/reset before headers";

describe("a failed dispatch request's line", () => {
  it("is the code's own text in the interface language, never the computer's raw message", () => {
    for (const language of INTERFACE_LANGUAGES) {
      for (const code of ERROR_CODES) {
        const line = problemText({ code, isRelayUnreachable: false, message: RAW }, language);
        expect(line).toBe(ERROR_CODE_TEXTS[language][code]);
        expect(line).not.toContain(RAW);
      }
    }
  });

  it("says the relay was out of reach, or that something went wrong, when there is no code", () => {
    expect(problemText({ code: null, isRelayUnreachable: true, message: "fetch failed" }, "zh")).toBe(
      CORE_TEXTS.zh.errorRelayUnreachable,
    );
    expect(problemText({ code: null, isRelayUnreachable: false, message: RAW }, "en")).toBe(
      DISPATCH_TEXTS.en.problemUnexplained,
    );
  });
});
