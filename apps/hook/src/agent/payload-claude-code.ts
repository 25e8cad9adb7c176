import type { AgentAdapter, LastWordsPick, TranscriptReply } from "./agent-adapter.js";
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

/** A record of the person's prompt (a `user` record that is not a tool's result): where the turn began. */
function isClaudePrompt(record: Record<string, unknown>): boolean {
  if (record.type !== "user" || !isShape(record.message)) return false;
  const { content } = record.message;
  if (typeof content === "string") return true;
  return Array.isArray(content) && !content.some((block) => isShape(block) && block.type === "tool_result");
}

/** The last words before a permission request: assistant text back to the person's prompt, never before it. */
function pickClaudeLastWords(record: unknown): LastWordsPick {
  if (isShape(record) && isClaudePrompt(record)) return { words: null };
  const reply = pickClaudeReply(record);
  return reply ? { words: reply.text } : undefined;
}

/** Walking back: an assistant record with a tool call is this ask's (true); the person's prompt comes first (false). */
function pickClaudeAsk(record: unknown): boolean | undefined {
  if (!isShape(record)) return undefined;
  if (isClaudePrompt(record)) return false;
  if (record.type !== "assistant" || !isShape(record.message)) return undefined;
  const { content } = record.message;
  return Array.isArray(content) && content.some((block) => isShape(block) && block.type === "tool_use")
    ? true
    : undefined;
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
  lastWordsFromTranscript: async (path, deadline) =>
    (
      await findLastRecord(path, {
        // A tool's result is a `user` record too, often a large one: it is neither words nor the turn's start.
        mightMatch: (line) =>
          line.includes('"assistant"') || (line.includes('"user"') && !line.includes('"tool_result"')),
        pick: pickClaudeLastWords,
        deadline,
      })
    )?.words,
  isAskInTranscript: async (path, deadline) =>
    (await findLastRecord(path, {
      mightMatch: (line) =>
        line.includes('"tool_use"') || (line.includes('"user"') && !line.includes('"tool_result"')),
      pick: pickClaudeAsk,
      deadline,
    })) === true,
};
