import type { AgentAdapter, LastWordsPick, TranscriptReply } from "./agent-adapter.js";
import { isShape, textBlocks } from "./agent-adapter.js";
import { findLastRecord } from "./transcript.js";

// Built-ins on the report path come from the runtime, not `import`: see daemon-call/post-report.ts.
const { statSync } = process.getBuiltinModule("node:fs");

/**
 * The final reply in a Codex rollout (`{timestamp, type, payload}` per line): the last assistant message,
 * written as a `response_item` message, an `agent_message` event or the `task_complete` event's
 * `last_agent_message`, whichever comes last.
 */
function pickCodexReply(record: unknown): TranscriptReply | undefined {
  if (!isShape(record) || !isShape(record.payload)) return undefined;
  const { payload } = record;
  let text: string | undefined;
  if (record.type === "response_item" && payload.type === "message" && payload.role === "assistant") {
    text = textBlocks(payload.content, "output_text").join("");
  } else if (record.type === "event_msg" && payload.type === "agent_message") {
    text = typeof payload.message === "string" ? payload.message : undefined;
  } else if (record.type === "event_msg" && payload.type === "task_complete") {
    text = typeof payload.last_agent_message === "string" ? payload.last_agent_message : undefined;
  }
  return text ? { text } : undefined;
}

/** Where a turn begins in a rollout: its `task_started` event, or the person's (or the harness's) user message. */
function isCodexTurnStart(record: unknown): boolean {
  if (!isShape(record) || !isShape(record.payload)) return false;
  const { payload } = record;
  if (record.type === "event_msg") return payload.type === "task_started" || payload.type === "user_message";
  return record.type === "response_item" && payload.type === "message" && payload.role === "user";
}

/** The last words before a permission request: the last assistant message back to the turn's start. */
function pickCodexLastWords(record: unknown): LastWordsPick {
  if (isCodexTurnStart(record)) return { words: null };
  const reply = pickCodexReply(record);
  return reply ? { words: reply.text } : undefined;
}

function mightHoldCodexLastWords(line: string): boolean {
  return (
    mightHoldCodexReply(line) ||
    line.includes('"user"') ||
    line.includes("user_message") ||
    line.includes("task_started")
  );
}

function mightHoldCodexReply(line: string): boolean {
  return line.includes('"assistant"') || line.includes("agent_message");
}

function hasRollout(path: string | null | undefined): boolean {
  if (!path) return false;
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Walking back: a tool call of the model is this ask's (true); the turn's start comes first (false). */
function pickCodexAsk(record: unknown): boolean | undefined {
  if (isCodexTurnStart(record)) return false;
  if (!isShape(record) || !isShape(record.payload) || record.type !== "response_item") return undefined;
  const { type } = record.payload;
  return type === "function_call" || type === "custom_tool_call" || type === "local_shell_call"
    ? true
    : undefined;
}

export const codexAdapter: AgentAdapter = {
  source: "codex",
  turnId: (payload) => payload.turn_id,
  // Only threads with a rollout file can be resumed; the others are Codex's internal turns.
  notReportedReason: (payload) =>
    hasRollout(payload.transcript_path) ? undefined : "Codex turn without a rollout file (internal turn)",
  replyFromTranscript: (path, deadline) =>
    findLastRecord(path, { mightMatch: mightHoldCodexReply, pick: pickCodexReply, deadline }),
  lastWordsFromTranscript: async (path, deadline) =>
    (await findLastRecord(path, { mightMatch: mightHoldCodexLastWords, pick: pickCodexLastWords, deadline }))
      ?.words,
  isAskInTranscript: async (path, deadline) =>
    (await findLastRecord(path, {
      mightMatch: (line) => line.includes("_call") || mightHoldCodexLastWords(line),
      pick: pickCodexAsk,
      deadline,
    })) === true,
};
