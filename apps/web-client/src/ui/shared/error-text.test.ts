import { ModelAnswerError } from "@ringback/client";
import { describe, expect, it } from "vitest";
import { VoiceUnavailableError } from "../../app/voice/voice-problem.js";
import { errorText } from "./error-text.js";

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
});
