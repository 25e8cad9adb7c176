import type { CallRecord } from "./call-record.js";

/** What to do with a call the user asked to open (a notification was clicked): answer it, wait for it, or give up. */
export type OpenDecision = "answer" | "wait" | "drop";

/**
 * A clicked notification means "take this call": answered as soon as it rings or is missed here. A call not yet on
 * the device, or still being prepared or queued, is waited for; one already in a call or over is left alone.
 */
export function decideOpen(record: CallRecord | undefined): OpenDecision {
  if (!record) return "wait";
  switch (record.status.state) {
    case "ringing":
    case "missed":
      return "answer";
    case "preparing":
    case "queued":
      return "wait";
    default:
      return "drop";
  }
}

/** The call id in an address opened by a notification click (`#call=<eventId>`), or null. */
export function callIdOfAddress(href: string): string | null {
  const hash = new URL(href).hash;
  const match = /^#call=([^&]+)$/.exec(hash);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}
