import type { FleetTexts } from "../i18n/texts/fleet.js";
import type { FleetEntry } from "./fleet-list.js";

const MINUTE_MS = 60_000;

/** A length of time in whole minutes, as the card says it: "12 min", "1 h 5 min". */
export function durationText(ms: number, t: FleetTexts): string {
  const minutes = Math.floor(Math.max(0, ms) / MINUTE_MS);
  if (minutes < 60) return t.minutes(minutes);
  return t.hours(Math.floor(minutes / 60), minutes % 60);
}

/**
 * What the card says of an agent at `now`: "working 12 min", "needs you", "finished 2 min ago — <the brief's
 * headline>", "failed — <headline>". A time ahead of `now` (another device's clock) reads as just now.
 */
export function fleetEntryWords(entry: FleetEntry, now: Date, t: FleetTexts): string {
  const elapsed = now.getTime() - Date.parse(entry.since);
  const isUnderAMinute = !(elapsed >= MINUTE_MS);
  const words = {
    working: isUnderAMinute ? t.workingJustStarted : t.working(durationText(elapsed, t)),
    "needs-you": t.needsYou,
    finished: isUnderAMinute ? t.finishedJustNow : t.finished(durationText(elapsed, t)),
    failed: t.failed,
  }[entry.state];
  // A working agent has no headline; the others say what ended or what is asked.
  return entry.headline && entry.state !== "working" ? t.withHeadline(words, entry.headline) : words;
}
