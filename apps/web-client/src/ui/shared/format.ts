import type { CallOutcome, CallRecord, MissedReason } from "@ringback/client";
import type { CoreTexts } from "@ringback/client/texts";

const TIME_TO_THE_SECOND = new Intl.DateTimeFormat(undefined, {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** A time to the second, in the device's locale and time zone. */
export function formatTime(iso: string | null): string {
  if (!iso) return "";
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : TIME_TO_THE_SECOND.format(time);
}

const CLOCK_TO_THE_SECOND = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** A time of day to the second (a step of a call, on the call's own row), in the device's locale and time zone. */
export function formatClock(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : CLOCK_TO_THE_SECOND.format(time);
}

const OUTCOME_KEY: Record<CallOutcome, keyof CoreTexts> = {
  answered: "outcomeAnswered",
  "answered-elsewhere": "outcomeAnsweredElsewhere",
  rejected: "outcomeRejected",
  "rejected-elsewhere": "outcomeRejectedElsewhere",
  acknowledged: "outcomeAcknowledged",
  "acknowledged-elsewhere": "outcomeAcknowledgedElsewhere",
  "ended-elsewhere": "outcomeEndedElsewhere",
  expired: "outcomeExpired",
  ignored: "outcomeIgnored",
};

const MISSED_KEY: Record<MissedReason, keyof CoreTexts> = {
  "outside-ringing-period": "missedOutsideRingingPeriod",
  "learned-late": "missedLearnedLate",
  "before-joining": "missedBeforeJoining",
  "ringing-period-ended": "missedRingingPeriodEnded",
  interrupted: "missedInterrupted",
  "set-aside": "missedSetAside",
  expired: "missedExpired",
  "stopped-waiting": "missedStoppedWaiting",
  quiet: "missedQuiet",
  skipped: "missedSkipped",
};

/** The history's status text of a call. */
export function statusText(record: CallRecord, t: CoreTexts): string {
  const { outcome, missedReason, state } = record.status;
  if (outcome) return t[OUTCOME_KEY[outcome]] as string;
  if (state === "missed" && missedReason) return t[MISSED_KEY[missedReason]] as string;
  return state;
}
