import type { AgentCompletionPayload } from "@ringback/protocol";
import type { AgentKind } from "../agent-kind.js";

/** The final reply read from a transcript, with the model that wrote it when the record names one. */
export interface TranscriptReply {
  text: string;
  model?: string;
}

/** What differs between agents: how a turn is named, which turns count, where the reply is written. */
export interface AgentAdapter {
  source: AgentKind;
  /** The agent's id for this turn (one per user prompt), if it sends one. */
  turnId(payload: AgentCompletionPayload): string | null | undefined;
  /** Why this payload is not reported, beyond the rules shared by all agents; `undefined` when it is. */
  notReportedReason(payload: AgentCompletionPayload): string | undefined;
  /** The final reply from the transcript, for agents whose payload lacks `last_assistant_message`. */
  replyFromTranscript(path: string, deadline: number): Promise<TranscriptReply | undefined>;
  /**
   * The agent's last words in the current turn, for a permission request: the last assistant text after the
   * person's prompt; `null` when it said nothing before asking, `undefined` when the transcript cannot tell.
   */
  lastWordsFromTranscript(path: string, deadline: number): Promise<string | null | undefined>;
  /**
   * Whether the transcript already holds this turn's tool call (the ask): agents write it a moment after they run
   * the hook, and last words read before it is there would miss what the agent said just before asking.
   */
  isAskInTranscript(path: string, deadline: number): Promise<boolean>;
}

/** What a last-words search found in one record: words, the turn's start (no words), or nothing yet. */
export type LastWordsPick = { words: string | null } | undefined;

export type Shape = Record<string, unknown>;

export function isShape(value: unknown): value is Shape {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `text` of every content block of the given type, in order. */
export function textBlocks(content: unknown, blockType: string): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) =>
    isShape(block) && block.type === blockType && typeof block.text === "string" ? [block.text] : [],
  );
}
