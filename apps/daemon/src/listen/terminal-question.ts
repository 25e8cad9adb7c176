import type { CallRecord } from "@ringback/client";
import { IN_CALL_TEXTS, NEEDS_YOU_TEXTS } from "@ringback/client/texts";

const BELL = "\u0007";
const RULE = "─".repeat(60);
const t = NEEDS_YOU_TEXTS.en;
const it = IN_CALL_TEXTS.en;

/*
 * A tracker agent's question (it mentioned the user, or moved its issue to blocked) rings as "needs you" like a
 * permission ask, but it waits for words, not for allow or deny: a reply, posted as the user's comment on the issue.
 * Its brief is the question in words, made without a model (the daemon's `trackerQuestionBrief`).
 */

/** Which issue: `RING-12 "Move the login page"`, as the brief names it. */
function issueLine(record: CallRecord): string[] {
  const tracker = record.payload.report.tracker;
  return tracker?.issueIdentifier ? [`${tracker.issueIdentifier} "${tracker.issueTitle ?? ""}"`] : [];
}

/** The question whole (the brief's card: mention links said as the names they show). */
function questionLines(record: CallRecord): string[] {
  return record.payload.brief.cards.map((card) => `${card.title}:\n  ${card.body.split("\n").join("\n  ")}`);
}

/** A tracker question ringing: the bell, "Needs you" and who asks, in which issue, the question, and the keys. */
export function questionRingingText(record: CallRecord, caller: string): string {
  return [
    `${BELL}${RULE}`,
    `${t.needsYou}: ${caller}`,
    record.payload.brief.title,
    ...issueLine(record),
    "",
    ...questionLines(record),
    "",
    "a = answer   r = reject   k = acknowledge",
    RULE,
    "",
  ].join("\n");
}

/** A tracker question answered here: the question in words, whole (what a phone reads aloud), and how to reply. */
export function questionInCallText(record: CallRecord, caller: string): string {
  return [
    `In call with ${caller}: ${record.payload.brief.title}`,
    record.payload.brief.spoken,
    "",
    `reply <text> = ${it.replyAsCommentPlaceholder}   h = hang up`,
    "",
  ].join("\n");
}
