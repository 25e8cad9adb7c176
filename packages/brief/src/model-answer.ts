import type { StreamedCompletion } from "./completion-stream.js";

/** How much of a server's message an error quotes. */
const ERROR_DETAIL_MAX_CHARS = 200;

/** Why a call failed, for callers that act on it (the connection test's advice); the message says it to people. */
export type ModelCallFailure = "time" | "output_limit" | "other";

export type ContentResult =
  | { ok: true; value: string }
  | { ok: false; error: string; failure: ModelCallFailure };

const problem = (error: string, failure: ModelCallFailure = "other"): ContentResult => ({
  ok: false,
  error,
  failure,
});

/** The text on one line, cut to what an error quotes. */
function truncate(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > ERROR_DETAIL_MAX_CHARS ? `${flat.slice(0, ERROR_DETAIL_MAX_CHARS)}…` : flat;
}

/** The message an OpenAI-style error body carries, or the start of the body. */
export function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof body.error === "string"
        ? body.error
        : typeof body.error?.message === "string"
          ? body.error.message
          : typeof body.message === "string"
            ? body.message
            : undefined;
    if (message) return truncate(message);
  } catch {
    // Not JSON: quote the text itself.
  }
  return truncate(text);
}

/** Where the output cap is raised, as every output-limit message ends. */
const OUTPUT_CAP_FIX =
  "raise the output cap (`ringback model limits --output-tokens <tokens>`, or the app's Settings › Your computer › Language model for briefs)";

/** What an answer cut at its output limit had written: thinking only, or an answer that ran on. */
type CutAnswer = "thinking" | "answer";

/**
 * The error of an answer cut at its output limit, with its likely cause. Thinking is blamed only when the model
 * thought and wrote no answer; an answer that runs on to the limit is a model (or a stuck server) that does not stop.
 */
function outputLimitError(maxTokens: number | undefined, cut: CutAnswer): string {
  const limit = maxTokens === undefined ? "its output limit" : `the output limit of ${maxTokens} tokens`;
  const first = `The language model's answer was cut off at ${limit}.`;
  if (cut === "thinking")
    return `${first} It spent them thinking and wrote no answer: turn thinking off for this model (the README says how for llama.cpp, Ollama and LM Studio), or ${OUTPUT_CAP_FIX}.`;
  return `${first} Its answer ran on without finishing (a model that repeats itself, or a server that is stuck: restart it): try another model, or ${OUTPUT_CAP_FIX}.`;
}

/** What the finish reason and the refusal say about an answer, before its content is read. */
function finishProblem(
  finishReason: unknown,
  refusal: unknown,
  maxTokens: number | undefined,
  cut: CutAnswer,
): ContentResult | null {
  if (finishReason === "content_filter")
    return problem("The language model's content filter blocked the brief.");
  if (typeof refusal === "string" && refusal.length > 0) {
    return problem(`The language model refused: ${truncate(refusal)}`);
  }
  if (finishReason === "length") return problem(outputLimitError(maxTokens, cut), "output_limit");
  return null;
}

/** The assistant message's text from a whole chat-completion body, or why there is none. */
export function wholeAnswerContent(text: string, maxTokens: number | undefined): ContentResult {
  let body: { choices?: unknown };
  try {
    body = JSON.parse(text) as { choices?: unknown };
  } catch {
    return problem("The language model's answer is not a chat completion (the body is not JSON).");
  }
  const choice = Array.isArray(body?.choices)
    ? (body.choices[0] as { finish_reason?: unknown; message?: Record<string, unknown> } | undefined)
    : undefined;
  if (!choice) return problem("The language model's answer has no choices.");
  const written = choice.message?.content;
  const cut = (typeof written === "string" ? written : "").trim() === "" ? "thinking" : "answer";
  const finished = finishProblem(choice.finish_reason, choice.message?.refusal, maxTokens, cut);
  if (finished) return finished;
  const content = choice.message?.content;
  if (typeof content === "string") return { ok: true, value: content };
  if (Array.isArray(content)) {
    return {
      ok: true,
      value: content.map((part) => (typeof part?.text === "string" ? part.text : "")).join(""),
    };
  }
  return problem("The language model's answer has no content.");
}

/** The text of a streamed answer that has ended, or why there is none. */
export function streamedAnswerContent(
  completion: StreamedCompletion,
  maxTokens: number | undefined,
): ContentResult {
  if (completion.error !== null) {
    return problem(`The language model stopped with an error: ${truncate(completion.error)}`);
  }
  const cut = completion.content.trim() === "" ? "thinking" : "answer";
  const finished = finishProblem(completion.finishReason, completion.refusal, maxTokens, cut);
  if (finished) return finished;
  if (completion.finishReason === null && !completion.isDone) {
    return problem("The language model's stream ended before its answer was complete.");
  }
  if (completion.content.length === 0) return problem("The language model's answer has no content.");
  return { ok: true, value: completion.content };
}
