/** Answers the two wire formats agent CLIs speak: Claude Code's Messages API, Codex's Responses API. */
import type { ServerResponse } from "node:http";
import { lastUserText } from "./agent-prompt.js";
import type { AgentWireFormat, FakeToolCall } from "./agent-tools.js";
import type { FakeAnswer } from "./answers.js";
import {
  anthropicError,
  anthropicMessage,
  anthropicStreamEvents,
  anthropicToolUseMessage,
  anthropicToolUseStreamEvents,
} from "./anthropic-messages.js";
import { sendJson } from "./json-response.js";
import {
  openAiResponse,
  openAiResponseStreamEvents,
  openAiToolCallResponse,
  openAiToolCallStreamEvents,
} from "./openai-responses.js";
import { sendServerSentEvents } from "./server-sent-events.js";

/**
 * The answers that produce a response at once (hang and delay are handled before, `shell-from-prompt` is decided
 * before), plus a tool call.
 */
export type ImmediateAnswer =
  | Extract<FakeAnswer, { kind: "content" | "echo" | "status" }>
  | { kind: "tool-call"; call: FakeToolCall };

/** What an agent turn gets when the echo answers: the user's last words, quoted. */
export function agentEcho(body: unknown): string {
  return `Fake answer to: ${lastUserText(body)}`;
}

function errorMessageOf(body: unknown, status: number): string {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === "string" ? message : `Fake model error ${status}`;
}

/**
 * Writes one answer in the agent's wire format: text content (a scripted `content` or the echo) as a whole
 * turn ending with the text and no tool call, or a tool call (with the words before it, if any), streamed when
 * the request asks for `stream: true`; a `status` answer as that format's error body.
 */
export function answerAgent(
  format: AgentWireFormat,
  response: ServerResponse,
  body: unknown,
  answer: ImmediateAnswer,
  model: string,
): void {
  if (answer.kind === "status") {
    const message = errorMessageOf(answer.body, answer.status);
    const errorBody =
      format === "messages"
        ? anthropicError(answer.status, message)
        : (answer.body ?? { error: { message, type: "server_error", param: null, code: null } });
    sendJson(response, answer.status, errorBody, answer.headers);
    return;
  }
  const prompt = JSON.stringify(body);
  const isStream = (body as { stream?: unknown }).stream === true;
  if (answer.kind === "tool-call") {
    const { call } = answer;
    if (format === "messages") {
      if (isStream) sendServerSentEvents(response, anthropicToolUseStreamEvents(model, call, prompt));
      else sendJson(response, 200, anthropicToolUseMessage(model, call, prompt));
    } else if (isStream) sendServerSentEvents(response, openAiToolCallStreamEvents(model, call, prompt));
    else sendJson(response, 200, openAiToolCallResponse(model, call, prompt));
    return;
  }
  const text = answer.kind === "echo" ? agentEcho(body) : (answer.content ?? "");
  if (format === "messages") {
    if (isStream) sendServerSentEvents(response, anthropicStreamEvents(model, text, prompt));
    else sendJson(response, 200, anthropicMessage(model, text, prompt));
    return;
  }
  if (isStream) sendServerSentEvents(response, openAiResponseStreamEvents(model, text, prompt));
  else sendJson(response, 200, openAiResponse(model, text, prompt));
}
