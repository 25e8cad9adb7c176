/** Bodies and events in the shapes of Anthropic's Messages API (`POST /v1/messages`): text, or text and a tool call. */
import { randomBytes } from "node:crypto";
import { approximateTokens, textPieces } from "./agent-prompt.js";
import type { FakeToolCall } from "./agent-tools.js";
import type { ServerSentEvent } from "./server-sent-events.js";

const messageId = () => `msg_fake_${randomBytes(12).toString("hex")}`;
const toolUseId = () => `toolu_fake_${randomBytes(12).toString("hex")}`;

function usage(prompt: string, text: string) {
  return {
    input_tokens: approximateTokens(prompt),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: approximateTokens(text),
  };
}

/** A complete (non-streaming) assistant message with one text block. */
export function anthropicMessage(model: string, text: string, prompt: string) {
  return {
    id: messageId(),
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: usage(prompt, text),
  };
}

/** The events of a streamed assistant message with one text block, ending the turn. */
export function anthropicStreamEvents(model: string, text: string, prompt: string): ServerSentEvent[] {
  const { output_tokens, ...inputUsage } = usage(prompt, text);
  return [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: messageId(),
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...inputUsage, output_tokens: 1 },
        },
      },
    },
    {
      event: "content_block_start",
      data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    },
    { event: "ping", data: { type: "ping" } },
    ...textPieces(text).map((piece) => ({
      event: "content_block_delta",
      data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } },
    })),
    { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  ];
}

/** A complete (non-streaming) assistant message calling a tool: `[text?, tool_use]`, `stop_reason: "tool_use"`. */
export function anthropicToolUseMessage(model: string, call: FakeToolCall, prompt: string) {
  const input = JSON.stringify(call.input);
  const text = call.say === undefined ? [] : [{ type: "text", text: call.say }];
  return {
    ...anthropicMessage(model, `${call.say ?? ""}${input}`, prompt),
    content: [...text, { type: "tool_use", id: toolUseId(), name: call.name, input: call.input }],
    stop_reason: "tool_use",
  };
}

/**
 * The events of a streamed assistant message calling a tool, as Claude Code reads them: an optional text block,
 * then a `tool_use` block (`content_block_start` with empty `input`, the input as `input_json_delta` pieces),
 * `message_delta` with `stop_reason: "tool_use"`.
 */
export function anthropicToolUseStreamEvents(
  model: string,
  call: FakeToolCall,
  prompt: string,
): ServerSentEvent[] {
  const input = JSON.stringify(call.input);
  const events = anthropicStreamEvents(model, call.say ?? "", prompt);
  const head = events.slice(0, 1);
  const textBlock = call.say === undefined ? [] : events.slice(1, -2);
  const index = textBlock.length === 0 ? 0 : 1;
  const half = Math.ceil(input.length / 2);
  const toolBlock: ServerSentEvent[] = [
    {
      event: "content_block_start",
      data: {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: toolUseId(), name: call.name, input: {} },
      },
    },
    ...[input.slice(0, half), input.slice(half)].map((partial_json) => ({
      event: "content_block_delta",
      data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } },
    })),
    { event: "content_block_stop", data: { type: "content_block_stop", index } },
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { output_tokens: approximateTokens(`${call.say ?? ""}${input}`) },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  ];
  return [...head, ...textBlock, ...toolBlock];
}

/** `POST /v1/messages/count_tokens`. */
export function anthropicTokenCount(prompt: string) {
  return { input_tokens: approximateTokens(prompt) };
}

/** Anthropic's error body; the type follows the status as the API does. */
export function anthropicError(status: number, message: string) {
  const type =
    status === 401
      ? "authentication_error"
      : status === 429
        ? "rate_limit_error"
        : status === 529
          ? "overloaded_error"
          : status >= 500
            ? "api_error"
            : "invalid_request_error";
  return { type: "error", error: { type, message } };
}
