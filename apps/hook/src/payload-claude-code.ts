import type { AgentAdapter, TranscriptReply } from "./agent-adapter.js";
import { isShape, textBlocks } from "./agent-adapter.js";
import { findLastRecord } from "./transcript.js";

/**
 * The final reply in a Claude Code transcript: the text blocks of the last record whose top-level `type`
 * is "assistant" (never `message.role`: Claude also writes request records with other roles). A record
 * without text (a thinking block written separately) is passed over for the one before it.
 */
function pickClaudeReply(record: unknown): TranscriptReply | undefined {
  if (!isShape(record) || record.type !== "assistant" || !isShape(record.message)) return undefined;
  const { content, model } = record.message;
  const texts = typeof content === "string" ? [content] : textBlocks(content, "text");
  if (texts.length === 0) return undefined;
  const reply: TranscriptReply = { text: texts.join("\n\n") };
  if (typeof model === "string") reply.model = model;
  return reply;
}

export const claudeCodeAdapter: AgentAdapter = {
  source: "claude-code",
  turnId: (payload) => payload.prompt_id,
  notReportedReason: () => undefined,
  replyFromTranscript: (path, deadline) =>
    findLastRecord(path, {
      mightMatch: (line) => line.includes('"assistant"'),
      pick: pickClaudeReply,
      deadline,
    }),
};
