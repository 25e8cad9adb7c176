/** Bodies and events in the shapes of OpenAI's Responses API (`POST /v1/responses`), text answers only. */
import { randomBytes } from "node:crypto";
import { approximateTokens, textPieces } from "./agent-prompt.js";
import type { ServerSentEvent } from "./server-sent-events.js";

const newId = (prefix: string) => `${prefix}_fake_${randomBytes(12).toString("hex")}`;

function outputMessage(id: string, text: string, status: "in_progress" | "completed") {
  return {
    id,
    type: "message",
    status,
    role: "assistant",
    content: status === "completed" ? [{ type: "output_text", text, annotations: [], logprobs: [] }] : [],
  };
}

function usage(prompt: string, text: string) {
  const inputTokens = approximateTokens(prompt);
  const outputTokens = approximateTokens(text);
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
}

function responseObject(id: string, model: string, status: string, output: unknown[], usageValue: unknown) {
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    store: false,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    usage: usageValue,
    metadata: {},
  };
}

/** A complete (non-streaming) response with one assistant message. */
export function openAiResponse(model: string, text: string, prompt: string) {
  return responseObject(
    newId("resp"),
    model,
    "completed",
    [outputMessage(newId("msg"), text, "completed")],
    usage(prompt, text),
  );
}

/** The events of a streamed response with one assistant message and no tool call. */
export function openAiResponseStreamEvents(model: string, text: string, prompt: string): ServerSentEvent[] {
  const responseId = newId("resp");
  const itemId = newId("msg");
  const done = outputMessage(itemId, text, "completed");
  const part = { type: "output_text", text: "", annotations: [], logprobs: [] };
  const events: { type: string; [field: string]: unknown }[] = [
    { type: "response.created", response: responseObject(responseId, model, "in_progress", [], null) },
    { type: "response.in_progress", response: responseObject(responseId, model, "in_progress", [], null) },
    { type: "response.output_item.added", output_index: 0, item: outputMessage(itemId, text, "in_progress") },
    { type: "response.content_part.added", item_id: itemId, output_index: 0, content_index: 0, part },
    ...textPieces(text).map((delta) => ({
      type: "response.output_text.delta",
      item_id: itemId,
      output_index: 0,
      content_index: 0,
      delta,
      logprobs: [],
    })),
    {
      type: "response.output_text.done",
      item_id: itemId,
      output_index: 0,
      content_index: 0,
      text,
      logprobs: [],
    },
    {
      type: "response.content_part.done",
      item_id: itemId,
      output_index: 0,
      content_index: 0,
      part: { ...part, text },
    },
    { type: "response.output_item.done", output_index: 0, item: done },
    {
      type: "response.completed",
      response: responseObject(responseId, model, "completed", [done], usage(prompt, text)),
    },
  ];
  return events.map((data, sequence) => ({ event: data.type, data: { ...data, sequence_number: sequence } }));
}
