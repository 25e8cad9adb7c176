import { describe, expect, it } from "vitest";
import { recordFor } from "../../test/fixtures.js";
import { pushLogLines, pushStepText } from "./push-log-lines.js";
import { PUSH_TEXTS } from "./push-texts.js";

describe("the push log in settings", () => {
  it("words every step the worker writes, in English and Chinese", () => {
    const steps = [
      "received",
      "shown",
      "missed",
      "quiet: ended",
      "quiet: answered-here",
      "quiet: settled-here",
      "quiet: settled-elsewhere",
      "quiet: unpaired",
      "failed: TypeError: boom",
    ];
    expect(steps.map((step) => pushStepText(step, PUSH_TEXTS.en))).toEqual([
      "push received",
      "rang",
      "shown as a missed call (no ring)",
      "not shown: the call was already over",
      "not shown: answered on this device",
      "not shown: already handled on this device",
      "closed: answered or ended on another device",
      "not shown: this device is not paired",
      "failed: TypeError: boom",
    ]);
    const chinese = steps.map((step) => pushStepText(step, PUSH_TEXTS.zh));
    expect(new Set(chinese).size).toBe(steps.length);
    expect(chinese.at(-1)).toBe("失败：TypeError: boom");
    expect(pushStepText("something new", PUSH_TEXTS.zh)).toBe("something new");
    expect(pushStepText("late: shown", PUSH_TEXTS.en)).toBe("then, late: rang");
  });

  it("names a call by its brief's title where this device holds it", () => {
    const record = recordFor({ eventId: "ev1" });
    const lines = pushLogLines(
      [
        { at: "2026-03-02T10:00:02.000Z", eventId: "ev1", step: "shown" },
        { at: "2026-03-02T10:00:01.000Z", eventId: "ev2", step: "received" },
      ],
      { ev1: record },
      PUSH_TEXTS.en,
    );
    expect(lines).toEqual([
      { at: "2026-03-02T10:00:02.000Z", text: "rang", callTitle: record.payload.brief.title },
      { at: "2026-03-02T10:00:01.000Z", text: "push received", callTitle: null },
    ]);
  });
});
