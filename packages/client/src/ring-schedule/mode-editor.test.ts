import { describe, expect, it } from "vitest";
import { isRingingAllowedAt } from "./day-evaluation.js";
import {
  addRange,
  crossesMidnight,
  daysSummary,
  isWholeDay,
  type ModeDraft,
  modeProblems,
  newModeDraft,
  removeRange,
  setRange,
  toggleDay,
  weekdayName,
} from "./mode-editor.js";
import { RingMode } from "./ring-mode.js";

describe("the ring mode editor", () => {
  it("starts a new mode as a night crossing midnight, every day, do not ring, on", () => {
    const draft = newModeDraft();
    expect(draft).toMatchObject({
      ranges: [{ start: "22:00", end: "08:00" }],
      rule: "do-not-ring-in",
      on: true,
    });
    expect(crossesMidnight(draft.ranges[0]!)).toBe(true);
    expect(RingMode.parse(draft)).toEqual(draft);
    expect(newModeDraft().id).not.toBe(draft.id);
    // Tuesday 23:30 and 07:00 are quiet, noon rings.
    expect(isRingingAllowedAt([draft], new Date(2026, 2, 3, 23, 30))).toBe(false);
    expect(isRingingAllowedAt([draft], new Date(2026, 2, 3, 7, 0))).toBe(false);
    expect(isRingingAllowedAt([draft], new Date(2026, 2, 3, 12, 0))).toBe(true);
  });

  it("toggles weekdays, keeping them sorted, and refuses a mode without days", () => {
    let draft: ModeDraft = { ...newModeDraft(), repeat: [1, 3] };
    draft = toggleDay(draft, 0);
    expect(draft.repeat).toEqual([0, 1, 3]);
    draft = toggleDay(toggleDay(toggleDay(draft, 0), 1), 3);
    expect(draft.repeat).toEqual([]);
    expect(modeProblems(draft)).toEqual(["no-days"]);
  });

  it("adds, edits and removes ranges, keeping at least one", () => {
    let draft = newModeDraft();
    draft = addRange(draft);
    expect(draft.ranges).toEqual([
      { start: "22:00", end: "08:00" },
      { start: "08:00", end: "24:00" },
    ]);
    draft = setRange(draft, 1, { start: "12:00", end: "13:00" });
    expect(draft.ranges[1]).toEqual({ start: "12:00", end: "13:00" });
    draft = removeRange(removeRange(draft, 0), 0);
    expect(draft.ranges).toEqual([{ start: "12:00", end: "13:00" }]);
    expect(modeProblems(setRange(draft, 0, { start: "", end: "13:00" }))).toEqual(["bad-time"]);
  });

  it("reads equal times and 00:00-24:00 as the whole day", () => {
    expect(isWholeDay({ start: "07:00", end: "07:00" })).toBe(true);
    expect(isWholeDay({ start: "00:00", end: "24:00" })).toBe(true);
    expect(isWholeDay({ start: "09:00", end: "17:00" })).toBe(false);
    expect(crossesMidnight({ start: "00:00", end: "24:00" })).toBe(false);
  });

  it("sums up the repeat days, Monday first", () => {
    expect(daysSummary([0, 1, 2, 3, 4, 5, 6])).toEqual({ kind: "every-day" });
    expect(daysSummary([5, 4, 3, 2, 1])).toEqual({ kind: "workdays" });
    expect(daysSummary([6, 0])).toEqual({ kind: "weekend" });
    expect(daysSummary([0, 2])).toEqual({ kind: "days", days: [2, 0] });
    expect(weekdayName(1, "en")).toBe("Mon");
    expect(weekdayName(0, "zh")).toBe("周日");
  });
});
