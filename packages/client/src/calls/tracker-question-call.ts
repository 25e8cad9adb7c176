import type { TrackerQuestion } from "@ringback/protocol";
import type { CallRecord } from "./call-record.js";

/*
 * A tracker agent's question (it mentioned the user in a comment, or moved its issue to blocked) rings as "needs you"
 * like a permission ask, but it is answered with words: a reply, which the computer posts as a comment on the issue.
 */

/** The agent's question, when the call is a tracker question call. */
export function trackerQuestionOf(record: Pick<CallRecord, "payload">): TrackerQuestion | null {
  return record.payload.trackerQuestion ?? null;
}

/** Whether the call rings and shows as "needs you": a permission ask, or a tracker agent's question. */
export function ringsAsNeedsYou(record: Pick<CallRecord, "payload">): boolean {
  return record.payload.needsYou !== undefined || record.payload.trackerQuestion !== undefined;
}
