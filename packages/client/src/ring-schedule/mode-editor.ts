import {
  EVERY_DAY,
  minuteOf,
  normaliseDays,
  RingMode,
  type TimeRange,
  type Weekday,
  WORKDAYS,
} from "./ring-mode.js";

/** The mode being added or edited in Settings › Ring modes. */
export type ModeDraft = RingMode;

/** What keeps a draft from being saved. */
export type ModeProblem = "no-days" | "bad-time";

function newModeId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
  return `mode-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** A new mode: every day, 22:00 to 08:00 (a night crossing midnight), do not ring, on once saved. */
export function newModeDraft(): ModeDraft {
  return {
    id: newModeId(),
    name: "",
    preset: null,
    ranges: [{ start: "22:00", end: "08:00" }],
    repeat: [...EVERY_DAY],
    rule: "do-not-ring-in",
    on: true,
    away: false,
  };
}

export function toggleDay(draft: ModeDraft, day: Weekday): ModeDraft {
  const repeat = draft.repeat.includes(day)
    ? draft.repeat.filter((other) => other !== day)
    : normaliseDays([...(draft.repeat as Weekday[]), day]);
  return { ...draft, repeat };
}

export function setRange(draft: ModeDraft, index: number, range: TimeRange): ModeDraft {
  return { ...draft, ranges: draft.ranges.map((old, at) => (at === index ? range : old)) };
}

/** Another range, starting where the last one ends. */
export function addRange(draft: ModeDraft): ModeDraft {
  const last = draft.ranges[draft.ranges.length - 1];
  const start = last && last.end !== "24:00" ? last.end : "12:00";
  return { ...draft, ranges: [...draft.ranges, { start, end: start === "12:00" ? "13:00" : "24:00" }] };
}

/** A mode keeps at least one range. */
export function removeRange(draft: ModeDraft, index: number): ModeDraft {
  if (draft.ranges.length <= 1) return draft;
  return { ...draft, ranges: draft.ranges.filter((_, at) => at !== index) };
}

/** A range whose end comes before its start crosses midnight: the day's early hours and its late hours. */
export function crossesMidnight(range: TimeRange): boolean {
  return minuteOf(range.end) < minuteOf(range.start);
}

/** A range whose start and end are equal covers the whole day. */
export function isWholeDay(range: TimeRange): boolean {
  return minuteOf(range.end) === minuteOf(range.start) || (range.start === "00:00" && range.end === "24:00");
}

export function modeProblems(draft: ModeDraft): ModeProblem[] {
  const problems: ModeProblem[] = [];
  if (draft.repeat.length === 0) problems.push("no-days");
  if (!RingMode.shape.ranges.safeParse(draft.ranges).success) problems.push("bad-time");
  return problems;
}

/** The repeat days in short: every day, workdays, the weekend, or the days themselves (Monday first). */
export type DaysSummary =
  | { readonly kind: "every-day" }
  | { readonly kind: "workdays" }
  | { readonly kind: "weekend" }
  | { readonly kind: "days"; readonly days: readonly Weekday[] };

const sameDays = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((day, index) => day === b[index]);

export function daysSummary(repeat: readonly number[]): DaysSummary {
  const days = normaliseDays(repeat as Weekday[]);
  if (sameDays(days, EVERY_DAY)) return { kind: "every-day" };
  if (sameDays(days, WORKDAYS)) return { kind: "workdays" };
  if (sameDays(days, [0, 6])) return { kind: "weekend" };
  return { kind: "days", days: MONDAY_FIRST.filter((day) => days.includes(day)) };
}

/** The week as the editor shows it: Monday first, Sunday last. */
export const MONDAY_FIRST: readonly Weekday[] = [...EVERY_DAY.slice(1), 0];

/** A weekday's short name in a language (8 March 2026 is a Sunday). */
export function weekdayName(day: Weekday, language: string): string {
  return new Intl.DateTimeFormat(language, { weekday: "short" }).format(new Date(2026, 2, 8 + day, 12));
}
