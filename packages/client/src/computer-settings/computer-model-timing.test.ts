import type { LlmTestTiming } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { COMPUTER_TEXTS } from "../i18n/texts/computer.js";
import { modelTimingLines, modelTimingView } from "./computer-model-timing.js";

/** A local model on a laptop: 75 prompt tokens/s, 12 tokens/s written, the default 10-minute limit. */
const LAPTOP: LlmTestTiming = {
  endpoint: "local",
  timeoutMs: 600_000,
  noProgressTimeoutMs: 60_000,
  promptTokensPerSecond: 75.4,
  outputTokensPerSecond: 12.26,
  estimates: [
    { report: "typical", lines: 30, promptTokens: 1403, outputTokens: 628, ms: 70_000, fitsTimeout: true },
    { report: "long", lines: 350, promptTokens: 2658, outputTokens: 628, ms: 87_000, fitsTimeout: true },
  ],
  advice: null,
};

describe("the connection test's timing in Settings › Language model for briefs", () => {
  it("shows the speeds, each report against the limit, and that both fit", () => {
    const view = modelTimingView(LAPTOP);
    expect(view.advice).toBeNull();
    expect(modelTimingLines(view, COMPUTER_TEXTS.en)).toEqual({
      speeds: "It reads 75 prompt tokens/s and writes 12 tokens/s.",
      limits: "Tested with an overall limit of 600 s, giving up after 60 s without a word.",
      reports: [
        "A typical report (about 30 lines): about 70 s, within the 600 s limit.",
        "A long report (about 350 lines): about 87 s, within the 600 s limit.",
      ],
      advice: "Both fit the limits.",
    });
  });

  it("tells the least overall limit that fits the slowest report, with the margin, in whole seconds", () => {
    const view = modelTimingView({
      ...LAPTOP,
      timeoutMs: 60_000,
      estimates: [
        { ...LAPTOP.estimates[0]!, ms: 70_000, fitsTimeout: false },
        { ...LAPTOP.estimates[1]!, ms: 87_001, fitsTimeout: false },
      ],
    });
    // 87.001 s × 1.25 = 108.75 s, so 109 s.
    expect(view.advice).toEqual({
      kind: "raise-timeout",
      report: "long",
      lines: 350,
      neededMs: 87_001,
      suggestedSeconds: 109,
    });
    const lines = modelTimingLines(view, COMPUTER_TEXTS.en);
    expect(lines.reports[0]).toBe(
      "A typical report (about 30 lines): about 70 s, too long for the 60 s limit.",
    );
    expect(lines.advice).toBe(
      "A long report would not finish in time: set the overall limit to at least 109 s, or choose a smaller or faster model.",
    );
    expect(modelTimingLines(view, COMPUTER_TEXTS.zh).advice).toBe(
      "长报告无法按时完成：请把总时限设为至少 109 秒，或换一个更小或更快的模型。",
    );
  });

  it("asks for a faster model when even the longest limit, an hour, would not do", () => {
    const view = modelTimingView({
      ...LAPTOP,
      outputTokensPerSecond: 0.2,
      estimates: [
        { ...LAPTOP.estimates[0]!, ms: 3_000_000, fitsTimeout: false },
        { ...LAPTOP.estimates[1]!, ms: 3_300_000, fitsTimeout: false },
      ],
    });
    expect(view.advice).toMatchObject({ kind: "faster-model", report: "long", neededMs: 3_300_000 });
    expect(modelTimingLines(view, COMPUTER_TEXTS.en).advice).toBe(
      "A long report needs about 3300 s, more than the longest limit (1 hour): choose a smaller or faster model.",
    );
  });

  it("says the speed is not known when the model did not stream, and gives no advice", () => {
    const view = modelTimingView({
      ...LAPTOP,
      promptTokensPerSecond: null,
      outputTokensPerSecond: null,
      estimates: LAPTOP.estimates.map((estimate) => ({ ...estimate, ms: null, fitsTimeout: null })),
    });
    const lines = modelTimingLines(view, COMPUTER_TEXTS.en);
    expect(lines.speeds).toContain("could not be measured");
    expect(lines.reports[1]).toBe("A long report (about 350 lines): time not known.");
    expect(lines.advice).toBeNull();
  });

  it("shows short times to a tenth of a second", () => {
    const view = modelTimingView({
      ...LAPTOP,
      promptTokensPerSecond: 2400,
      outputTokensPerSecond: 150,
      estimates: [{ ...LAPTOP.estimates[0]!, ms: 4_260, fitsTimeout: true }],
    });
    expect(modelTimingLines(view, COMPUTER_TEXTS.en).reports).toEqual([
      "A typical report (about 30 lines): about 4.3 s, within the 600 s limit.",
    ]);
  });
});
