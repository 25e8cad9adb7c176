import type { CallOutcome, CallRecord, MissedReason } from "../../app/calls/call-record.js";

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

const OUTCOME_TEXT: Record<CallOutcome, string> = {
  answered: "Answered",
  "answered-elsewhere": "Answered on another device",
  rejected: "Rejected",
  "rejected-elsewhere": "Rejected on another device",
  acknowledged: "Acknowledged",
  "acknowledged-elsewhere": "Acknowledged on another device",
  "ended-elsewhere": "Ended on another device",
  expired: "Expired",
  ignored: "Ignored",
};

const MISSED_TEXT: Record<MissedReason, string> = {
  "outside-ringing-period": "Missed: arrived outside ringing hours",
  "learned-late": "Missed: arrived while this device was away",
  "ringing-period-ended": "Missed: ringing hours ended",
  interrupted: "Missed: interrupted",
  expired: "Missed: nobody answered in time",
};

/** The history's status text of a call. */
export function statusText(record: CallRecord): string {
  const { outcome, missedReason, state } = record.status;
  if (outcome) return OUTCOME_TEXT[outcome];
  if (state === "missed" && missedReason) return MISSED_TEXT[missedReason];
  return state;
}
