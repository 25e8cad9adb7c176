import { type BriefScript, briefScript, type CallRecord } from "@ringback/client";

const BELL = "\u0007";
const RULE = "─".repeat(60);

/** The brief as the web app reads it (the agent's own words when the brief failed), for a terminal. */
export function scriptOf(record: CallRecord): BriefScript {
  return briefScript(record.payload, { formOfAddress: null });
}

function mainText(script: BriefScript): string {
  return script.isBriefFailed
    ? `The brief could not be written; the agent said:\n${script.originalText.trim()}`
    : script.main.map((segment) => segment.sentences.join(" ")).join("\n");
}

/** What the terminal shows when a call starts ringing: the bell, who calls, the brief, and the keys. */
export function ringingText(record: CallRecord, caller: string): string {
  const script = scriptOf(record);
  return [
    `${BELL}${RULE}`,
    `Incoming call: ${caller}`,
    script.title,
    "",
    mainText(script),
    "",
    "a = answer   r = reject   k = acknowledge",
    RULE,
    "",
  ].join("\n");
}

/** The call answered here: the brief in full (cards and open questions), and what to do next. */
export function inCallText(record: CallRecord, caller: string): string {
  const script = scriptOf(record);
  const cards = script.cardTexts.map((card) => `• ${card.title}: ${card.body}`);
  const questions = script.openQuestions.map((question) => `? ${question}`);
  return [
    `In call with ${caller}: ${script.title}`,
    mainText(script),
    ...(cards.length > 0 ? ["", ...cards] : []),
    ...(questions.length > 0 ? ["", "Open questions:", ...questions] : []),
    ...(script.isBriefFailed ? [] : ["", "The agent's report:", script.originalText.trim()]),
    "",
    "h = hang up   reply <text> = reply to the agent",
    "",
  ].join("\n");
}

/** Why a call that was ringing here stopped, in the history's words. */
export function stoppedText(record: CallRecord | undefined): string {
  const outcome = record?.status.outcome;
  switch (outcome) {
    case "answered-elsewhere":
      return "Answered on another device.";
    case "rejected-elsewhere":
      return "Rejected on another device.";
    case "acknowledged-elsewhere":
      return "Acknowledged on another device.";
    case "ended-elsewhere":
      return "Ended on another device.";
    case "expired":
      return "Expired: nobody answered in time.";
    default:
      if (record?.status.missedReason === "stopped-waiting") return "Missed: the agent stopped waiting.";
      return record?.status.state === "missed"
        ? "Missed: it waits among the missed calls (k acknowledges)."
        : "Stopped ringing.";
  }
}
