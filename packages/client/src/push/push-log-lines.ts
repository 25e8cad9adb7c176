import type { CallRecord } from "../calls/call-record.js";
import type { PushLogEntry } from "./push-log.js";
import type { PUSH_TEXTS } from "./push-texts.js";

type PushTexts = (typeof PUSH_TEXTS)["en"];

/** One line of Settings › Ring when the app is closed › Recent pushes. */
export interface PushLogLine {
  readonly at: string;
  readonly text: string;
  /** The brief's title when this device holds the call, else null. */
  readonly callTitle: string | null;
}

const QUIET_STEPS: Record<string, keyof PushTexts> = {
  "quiet: ended": "stepQuietEnded",
  "quiet: answered-here": "stepQuietAnsweredHere",
  "quiet: settled-here": "stepQuietSettledHere",
  "quiet: settled-elsewhere": "stepQuietSettledElsewhere",
  "quiet: unpaired": "stepQuietUnpaired",
};

/** A step of the worker's push log in the interface language; an unknown step is shown as it was written. */
export function pushStepText(step: string, t: PushTexts): string {
  if (step === "received") return t.stepReceived;
  if (step === "shown") return t.stepShown;
  if (step === "missed") return t.stepMissed;
  if (step.startsWith("failed: ")) return t.stepFailed(step.slice("failed: ".length));
  if (step.startsWith("late: ")) return t.stepLate(pushStepText(step.slice("late: ".length), t));
  const quiet = QUIET_STEPS[step];
  return quiet ? (t[quiet] as string) : step;
}

/** The log's lines, newest first, each naming its call by the brief's title where this device has its record. */
export function pushLogLines(
  entries: readonly PushLogEntry[],
  records: Readonly<Record<string, CallRecord>>,
  t: PushTexts,
): PushLogLine[] {
  return entries.map((entry) => ({
    at: entry.at,
    text: pushStepText(entry.step, t),
    callTitle: entry.eventId === null ? null : records[entry.eventId]?.payload.brief.title.trim() || null,
  }));
}
