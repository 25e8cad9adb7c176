import { askProject, type CallRecord, needsYouAsk } from "@ringback/client";
import { NEEDS_YOU_TEXTS } from "@ringback/client/texts";
import { type NeedsYouStatus, needsYouStatusText } from "@ringback/client/views";

const BELL = "\u0007";
const RULE = "─".repeat(60);
const t = NEEDS_YOU_TEXTS.en;

/** The exact request, whole (the brief's card: the command, the file, the address), and the agent's last words. */
function askLines(record: CallRecord): string[] {
  const ask = needsYouAsk(record);
  const cards = record.payload.brief.cards.map(
    (card) => `${card.title}:\n  ${card.body.split("\n").join("\n  ")}`,
  );
  return [
    ...cards,
    ...(ask?.lastWords ? ["", `The agent's last words: ${ask.lastWords}`] : []),
    ...(ask ? [`It waits until ${new Date(ask.expiresAt).toLocaleTimeString()}.`] : []),
  ];
}

/** Who asks: the agent, then the project. */
function asker(record: CallRecord, caller: string): string {
  const project = askProject(record);
  return project ? `${caller} ${t.inProject(project)}` : caller;
}

/** A "needs you" call ringing: the bell, who asks, the exact request and the agent's last words, and the keys. */
export function askRingingText(record: CallRecord, caller: string): string {
  return [
    `${BELL}${RULE}`,
    `Needs you: ${asker(record, caller)}`,
    record.payload.brief.title,
    "",
    ...askLines(record),
    "",
    "allow = allow once   deny [reason] = deny   a = answer   r = reject",
    RULE,
    "",
  ].join("\n");
}

/** A "needs you" call answered here: the ask in words (what a phone reads aloud), the request, the keys. */
export function askInCallText(record: CallRecord, caller: string): string {
  return [
    `In call with ${asker(record, caller)}: ${record.payload.brief.title}`,
    record.payload.brief.spoken,
    "",
    ...askLines(record),
    "",
    "allow = allow once   deny [reason] = deny, the reason goes to the agent   h = hang up",
    "",
  ].join("\n");
}

/** Where a decision stands, as one line for the terminal; null when there is nothing to say. */
export function askStatusLine(status: NeedsYouStatus | null): string | null {
  if (!status || status.kind === "waiting") return null;
  const text = needsYouStatusText(status, t);
  return status.kind === "decided" ? `${text}: the agent got it.` : `${text}.`;
}
