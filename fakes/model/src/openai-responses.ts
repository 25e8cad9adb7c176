/** Bodies and events in the shapes of OpenAI's Responses API (`POST /v1/responses`): text, or text and a tool call. */
import { randomBytes } from "node:crypto";
import { approximateTokens, textPieces } from "./agent-prompt.js";
import type { FakeToolCall } from "./agent-tools.js";
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

function functionCall(id: string, callId: string, call: FakeToolCall, status: "in_progress" | "completed") {
  return {
    id,
    type: "function_call",
    status,
    call_id: callId,
    name: call.name,
    arguments: status === "completed" ? JSON.stringify(call.input) : "",
  };
}

/** A complete (non-streaming) response calling a function: `[message?, function_call]`. */
export function openAiToolCallResponse(model: string, call: FakeToolCall, prompt: string) {
  const message = call.say === undefined ? [] : [outputMessage(newId("msg"), call.say, "completed")];
  const item = functionCall(newId("fc"), newId("call"), call, "completed");
  return responseObject(
    newId("resp"),
    model,
    "completed",
    [...message, item],
    usage(prompt, `${call.say ?? ""}${item.arguments}`),
  );
}

/**
 * The events of a streamed response calling a function, as Codex reads them: `response.created`,
 * `response.in_progress`, an optional assistant message (its events as a text answer has them), then
 * `response.output_item.added` (a `function_call` with empty `arguments`), two `response.function_call_arguments.delta`,
 * `.done`, `response.output_item.done` (the whole call with its `call_id`), `response.completed` listing the output.
 */
export function openAiToolCallStreamEvents(
  model: string,
  call: FakeToolCall,
  prompt: string,
): ServerSentEvent[] {
  const responseId = newId("resp");
  const itemId = newId("fc");
  const done = functionCall(itemId, newId("call"), call, "completed");
  const argumentsText = done.arguments;
  const half = Math.ceil(argumentsText.length / 2);
  // The message's own events (a text answer's, between response.in_progress and response.completed).
  const messageEvents =
    call.say === undefined
      ? []
      : openAiResponseStreamEvents(model, call.say, prompt)
          .slice(2, -1)
          .map(({ data }) => {
            const { sequence_number: _sequence, ...event } = data as {
              type: string;
              sequence_number: number;
            };
            return event;
          });
  const message = messageEvents.find((event) => event.type === "response.output_item.done") as
    | { item: unknown }
    | undefined;
  const outputIndex = message === undefined ? 0 : 1;
  const events: { type: string; [field: string]: unknown }[] = [
    { type: "response.created", response: responseObject(responseId, model, "in_progress", [], null) },
    { type: "response.in_progress", response: responseObject(responseId, model, "in_progress", [], null) },
    ...messageEvents,
    {
      type: "response.output_item.added",
      output_index: outputIndex,
      item: functionCall(itemId, done.call_id, call, "in_progress"),
    },
    ...[argumentsText.slice(0, half), argumentsText.slice(half)].map((delta) => ({
      type: "response.function_call_arguments.delta",
      item_id: itemId,
      output_index: outputIndex,
      delta,
    })),
    {
      type: "response.function_call_arguments.done",
      item_id: itemId,
      output_index: outputIndex,
      arguments: argumentsText,
    },
    { type: "response.output_item.done", output_index: outputIndex, item: done },
    {
      type: "response.completed",
      response: responseObject(
        responseId,
        model,
        "completed",
        [...(message === undefined ? [] : [message.item]), done],
        usage(prompt, `${call.say ?? ""}${argumentsText}`),
      ),
    },
  ];
  return events.map((data, sequence) => ({ event: data.type, data: { ...data, sequence_number: sequence } }));
}
