import { PROBLEM_TEXTS } from "@ringback/client/texts";
import { describe, expect, it } from "vitest";
import {
  hearingProblemText,
  type VoiceProblem,
  VoiceUnavailableError,
  voiceFailureText,
  voiceProblemOf,
  voiceProblemText,
} from "./voice-problem.js";

/** Every kind with its sentence in both interface languages; a kind added without a row here does not compile. */
const SENTENCES: { [K in VoiceProblem["kind"]]: [Extract<VoiceProblem, { kind: K }>, string, string] } = {
  "no-synthesis": [
    { kind: "no-synthesis" },
    "This browser has no speech synthesis.",
    "此浏览器没有语音合成功能。",
  ],
  "engine-failed": [
    { kind: "engine-failed", code: "audio-busy" },
    "Another app is using the sound. Close it, then tap Resume.",
    "另一个应用正在使用声音。请关闭它，然后点「继续」。",
  ],
  "no-platform": [{ kind: "no-platform" }, "No speech platform is set up.", "尚未设置语音平台。"],
  "platform-unreachable": [
    { kind: "platform-unreachable", address: "https://speech.example/v1" },
    "The speech platform at https://speech.example/v1 could not be reached.",
    "无法连接位于 https://speech.example/v1 的语音平台。",
  ],
  "platform-status": [
    { kind: "platform-status", status: 429 },
    "The speech platform answered 429.",
    "语音平台返回了错误（429）。",
  ],
  "audio-unplayable": [
    { kind: "audio-unplayable" },
    "The speech audio could not be played.",
    "语音音频无法播放。",
  ],
  "audio-refused": [
    { kind: "audio-refused", code: "NotAllowedError" },
    "The browser has not let this page speak yet. Tap Resume to start the voice.",
    "浏览器还不允许此页面发声。请点「继续」开始朗读。",
  ],
  "no-voice": [
    { kind: "no-voice" },
    "No voice is available on this device: the brief is shown as text.",
    "本设备没有可用的语音：简报以文字显示。",
  ],
  other: [{ kind: "other", detail: "Something else." }, "Something else.", "Something else."],
};

describe("the voice's problems, worded in the interface language", () => {
  for (const [kind, [problem, english, chinese]] of Object.entries(SENTENCES)) {
    it(`${kind}: an English and a Chinese sentence with the facts in place`, () => {
      expect(voiceProblemText(problem, PROBLEM_TEXTS.en)).toBe(english);
      expect(voiceProblemText(problem, PROBLEM_TEXTS.zh)).toBe(chinese);
    });
  }

  it("keeps the English sentence as the error's message, for logs, and the problem as plain data", () => {
    const error = new VoiceUnavailableError({ kind: "engine-failed", code: "synthesis-failed" });
    expect(error.message).toBe(
      "This device's voice stopped. Tap Resume to try again, or read the brief here.",
    );
    expect(voiceProblemOf(error)).toEqual({ kind: "engine-failed", code: "synthesis-failed" });
    expect(voiceProblemOf(new Error("elsewhere"))).toEqual({ kind: "other", detail: "elsewhere" });
  });

  it("words an engine's and a recognizer's error code, never showing the code", () => {
    const engine = (code: string) => voiceProblemText({ kind: "engine-failed", code }, PROBLEM_TEXTS.en);
    expect(engine("synthesis-failed")).toBe(
      "This device's voice stopped. Tap Resume to try again, or read the brief here.",
    );
    expect(engine("language-unavailable")).toContain("no voice for the brief's language");
    expect(engine("network")).toContain("Check the connection");
    expect(hearingProblemText("not-allowed", PROBLEM_TEXTS.en)).toBe(
      "The microphone is not allowed for this page (the browser's site settings allow it).",
    );
    expect(hearingProblemText("no-speech", PROBLEM_TEXTS.zh)).toBe("没有听到声音。");
    expect(hearingProblemText("something-new", PROBLEM_TEXTS.en)).toBe("Speech recognition stopped.");
  });

  it("words a call record's failure: a typed reason in the interface language, a stored sentence as it is", () => {
    expect(voiceFailureText({ kind: "no-synthesis" }, PROBLEM_TEXTS.zh)).toBe("此浏览器没有语音合成功能。");
    expect(voiceFailureText("This browser has no speech synthesis.", PROBLEM_TEXTS.zh)).toBe(
      "This browser has no speech synthesis.",
    );
    expect(voiceFailureText(null, PROBLEM_TEXTS.en)).toBe("");
  });
});
