import { ModelAnswerError, RelayError } from "@ringback/client";
import { ERROR_CODE_TEXTS, INTERFACE_LANGUAGES } from "@ringback/client/texts";
import { ERROR_CODES, ERROR_STATUS, RingbackError } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { VoiceUnavailableError } from "../../app/voice/voice-problem.js";
import { errorText } from "./error-text.js";

/** Two sentences at least: what happened, then the next step. */
const TWO_SENTENCES = { en: /[.!?:] \S.*[.!?]$/, zh: /[。：].+。$/ } as const;

describe("an error's sentence for the screen", () => {
  it("words a language model's failure in the interface language, the provider's own text kept", () => {
    const error = new ModelAnswerError({
      kind: "status",
      status: 401,
      detail: "Incorrect API key provided.",
    });
    expect(errorText(error, "en")).toBe("The language model answered 401: Incorrect API key provided.");
    expect(errorText(error, "zh")).toBe("模型返回了错误（401）：Incorrect API key provided.");
    const unreachable = new ModelAnswerError({ kind: "unreachable", address: "http://127.0.0.1:9/v1" });
    expect(errorText(unreachable, "zh")).toBe("无法连接位于 http://127.0.0.1:9/v1 的语言模型。");
  });

  it("words a voice failure in the interface language", () => {
    const error = new VoiceUnavailableError({ kind: "platform-status", status: 500 });
    expect(errorText(error, "en")).toBe("The speech platform answered 500.");
    expect(errorText(error, "zh")).toBe("语音平台返回了错误（500）。");
  });

  it("has a sentence for every code of the protocol's table, in every interface language, never the code or the relay's English", () => {
    const missing: string[] = [];
    for (const language of INTERFACE_LANGUAGES) {
      for (const code of ERROR_CODES) {
        const relayed = errorText(
          new RelayError(ERROR_STATUS[code], code, "The relay's own words."),
          language,
        );
        const fromComputer = errorText(new RingbackError(code, "The computer's own words."), language);
        const sentence = ERROR_CODE_TEXTS[language][code];
        const isSentence =
          typeof sentence === "string" &&
          TWO_SENTENCES[language].test(sentence) &&
          !sentence.includes(code) &&
          relayed === sentence &&
          fromComputer === sentence;
        if (!isSentence) missing.push(`${language} ${code}: ${String(sentence)} / ${relayed}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("says the real wait when the relay says how long (a join limit of 10 an hour)", () => {
    const limited = (waitMs: number) =>
      new RelayError(429, "rate_limited", "Too many wrong codes from this address; try again later.", {
        retryAfterMs: waitMs,
      });
    expect(errorText(limited(52 * 60_000 + 10_000), "en")).toBe("Too many tries. Try again in 53 minutes.");
    expect(errorText(limited(60_000), "en")).toBe("Too many tries. Try again in 1 minute.");
    expect(errorText(limited(20_500), "en")).toBe("Too many tries. Try again in 21 seconds.");
    expect(errorText(limited(52 * 60_000), "zh")).toBe("尝试次数过多。请在 52 分钟后重试。");
    // Without a Retry-After, no made-up wait.
    expect(errorText(new RelayError(429, "rate_limited", "Slow down."), "en")).toBe(
      "Too many tries. Wait a little, then try again.",
    );
  });

  it("words a relay failure without a code by its status, never a proxy's page", () => {
    expect(errorText(new RelayError(502, null, "<html>Bad gateway</html>"), "en")).toBe(
      "The relay failed (502). Try again in a moment.",
    );
  });
});
