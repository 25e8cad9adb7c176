import {
  type LlmChannelPublic,
  MODEL_CALL_LIMIT_MAX_MS,
  MODEL_CALL_LIMIT_MIN_MS,
  MODEL_OUTPUT_TOKENS_MAX,
  MODEL_OUTPUT_TOKENS_MIN,
  type ModelEndpointKind,
  modelCallLimits,
  PutLlmSettingsRequest,
  type StructuredOutput,
} from "@ringback/protocol";
import { type ComputerProblem, formProblem } from "./computer-problem.js";

/** One of the two model time limits as typed: the endpoint kind's default, or a number of seconds. */
export interface ModelLimitField {
  readonly useDefault: boolean;
  /** Seconds as typed; read only when `useDefault` is false. */
  readonly seconds: string;
}

/** The output cap as typed: the endpoint kind's default (no number: sized to each report, or none), or tokens. */
export interface ModelOutputCapField {
  readonly useDefault: boolean;
  /** Tokens as typed; read only when `useDefault` is false. */
  readonly tokens: string;
}

/** Settings › Language model for briefs, as typed: the key is write-only and never filled in. */
export interface ComputerModelForm {
  readonly baseUrl: string;
  readonly model: string;
  /** Empty keeps the key saved on the computer. */
  readonly apiKey: string;
  readonly structuredOutput: StructuredOutput;
  /** The overall cap of one model call (`timeoutMs`). */
  readonly timeout: ModelLimitField;
  /** The longest wait for the next token once the model answers (`noProgressTimeoutMs`). */
  readonly noProgress: ModelLimitField;
  /** The output cap (`max_tokens`) of every brief call (`maxOutputTokens`). */
  readonly outputCap: ModelOutputCapField;
}

const MS_PER_SECOND = 1000;

function limitField(savedMs: number | undefined): ModelLimitField {
  return savedMs === undefined
    ? { useDefault: true, seconds: "" }
    : { useDefault: false, seconds: String(savedMs / MS_PER_SECOND) };
}

function outputCapField(savedTokens: number | undefined): ModelOutputCapField {
  return savedTokens === undefined
    ? { useDefault: true, tokens: "" }
    : { useDefault: false, tokens: String(savedTokens) };
}

/** The form as it opens: the saved address, model, structured output, limits and output cap; never a key. */
export function computerModelForm(saved: LlmChannelPublic | null): ComputerModelForm {
  return {
    baseUrl: saved?.baseUrl ?? "",
    model: saved?.model ?? "",
    apiKey: "",
    structuredOutput: saved?.structuredOutput ?? "json_schema",
    timeout: limitField(saved?.timeoutMs),
    noProgress: limitField(saved?.noProgressTimeoutMs),
    outputCap: outputCapField(saved?.maxOutputTokens),
  };
}

/** The defaults the typed address gets (spec: Model call timeout), in whole seconds, and why: where it runs. */
export interface ModelLimitDefaults {
  readonly endpoint: ModelEndpointKind;
  readonly timeoutSeconds: number;
  readonly noProgressSeconds: number;
}

/** What "use the default" means for the address typed so far: a local model's limits or a hosted one's. */
export function modelLimitDefaults(baseUrl: string): ModelLimitDefaults {
  const limits = modelCallLimits({ baseUrl: baseUrl.trim() });
  return {
    endpoint: limits.endpoint,
    timeoutSeconds: limits.timeoutMs / MS_PER_SECOND,
    noProgressSeconds: limits.noProgressTimeoutMs / MS_PER_SECOND,
  };
}

/** A field switched from "use the default" to a number starts from the default's value, ready to change. */
export function customLimit(defaultSeconds: number): ModelLimitField {
  return { useDefault: false, seconds: String(defaultSeconds) };
}

/** The limit the request carries: null for the default, else milliseconds; undefined when not 1 s to 1 h. */
function limitMs(field: ModelLimitField): number | null | undefined {
  if (field.useDefault) return null;
  const text = field.seconds.trim().replace(",", ".");
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const ms = Math.round(Number(text) * MS_PER_SECOND);
  return ms >= MODEL_CALL_LIMIT_MIN_MS && ms <= MODEL_CALL_LIMIT_MAX_MS ? ms : undefined;
}

/** The output cap the request carries: null for the default, else tokens; undefined when not a whole 256 to 32,768. */
function outputCapTokens(field: ModelOutputCapField): number | null | undefined {
  if (field.useDefault) return null;
  const text = field.tokens.trim();
  if (!/^\d+$/.test(text)) return undefined;
  const tokens = Number(text);
  return tokens >= MODEL_OUTPUT_TOKENS_MIN && tokens <= MODEL_OUTPUT_TOKENS_MAX ? tokens : undefined;
}

/**
 * The `PUT /llm/settings` body the form stands for, or the problem that keeps it from being sent: no address or
 * model, an address that is not http(s), a limit that is not 1 to 3600 seconds, an output cap that is not a whole
 * 256 to 32,768 tokens, or no key while none is saved on the computer. Both limits and the output cap are always
 * sent: a number, or null for the endpoint kind's default.
 */
export function computerModelRequest(
  form: ComputerModelForm,
  saved: LlmChannelPublic | null,
): { request: PutLlmSettingsRequest } | { problem: ComputerProblem } {
  const baseUrl = form.baseUrl.trim();
  const model = form.model.trim();
  const apiKey = form.apiKey.trim();
  if (baseUrl === "" || model === "") return { problem: formProblem("model-incomplete") };
  const timeoutMs = limitMs(form.timeout);
  const noProgressTimeoutMs = limitMs(form.noProgress);
  if (timeoutMs === undefined || noProgressTimeoutMs === undefined)
    return { problem: formProblem("model-limit") };
  const maxOutputTokens = outputCapTokens(form.outputCap);
  if (maxOutputTokens === undefined) return { problem: formProblem("model-output-cap") };
  if (apiKey === "" && !saved) return { problem: formProblem("llm-key-required") };
  const parsed = PutLlmSettingsRequest.safeParse({
    baseUrl,
    model,
    structuredOutput: form.structuredOutput,
    timeoutMs,
    noProgressTimeoutMs,
    maxOutputTokens,
    ...(apiKey === "" ? {} : { apiKey }),
  });
  if (!parsed.success) return { problem: formProblem("model-address") };
  return { request: parsed.data };
}
