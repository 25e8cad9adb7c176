import {
  LlmChannel,
  type LlmChannelPublic,
  type LlmTestRequest,
  type PutLlmSettingsRequest,
  RingbackError,
  secretHint,
} from "@ringback/protocol";
import type { z } from "zod";
import type { RawConfig } from "../files/config-file.js";
import { isSameOrigin, originOf } from "../secrets/secret-origin.js";

/** `llm.primary` when it is a usable channel; a channel missing a field or malformed counts as not configured. */
export function configuredChannel(raw: Readonly<RawConfig>): LlmChannel | null {
  const parsed = LlmChannel.safeParse(primaryOf(raw));
  return parsed.success ? parsed.data : null;
}

/** The channel as returned by the interface: never the key, only its hint. */
export function publicChannel(channel: LlmChannel | null): LlmChannelPublic | null {
  if (!channel) return null;
  const { baseUrl, model, apiKey, structuredOutput, timeoutMs, noProgressTimeoutMs, maxOutputTokens } =
    channel;
  return {
    baseUrl,
    model,
    keyHint: secretHint(apiKey),
    structuredOutput,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(noProgressTimeoutMs === undefined ? {} : { noProgressTimeoutMs }),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
  };
}

/**
 * A limit (or the output cap) after a save: the request's number, or none for null (back to the endpoint's default), or the saved
 * one when the request leaves it out, whatever the address and model (the user set it; a new address keeps it).
 */
function savedLimit(
  requested: number | null | undefined,
  previous: unknown,
  schema: z.ZodType<number | undefined> = LlmChannel.shape.timeoutMs,
): { value?: number } {
  if (requested === null) return {};
  if (requested !== undefined) return { value: requested };
  const saved = schema.safeParse(previous);
  return saved.success && saved.data !== undefined ? { value: saved.data } : {};
}

/**
 * The whole `llm` section after a save from the app (spec: PUT /llm/settings). Without apiKey the saved key
 * is kept while the address stays on its origin (none saved, or a new origin: `llm_key_required`); the limits (`timeoutMs`, `noProgressTimeoutMs`) and the output cap (`maxOutputTokens`) are set, reset with
 * null, or kept when left out; a manual reasoningEffort survives only when the address and the model are
 * unchanged; anything else in the section (a manual fallback channel) is removed.
 */
export function savedLlmSection(
  raw: Readonly<RawConfig>,
  request: PutLlmSettingsRequest,
): { primary: LlmChannel } {
  const previous = primaryOf(raw);
  const apiKey = request.apiKey ?? keptKey(previous, request.baseUrl);
  const isSameChannel =
    typeof previous?.baseUrl === "string" &&
    typeof previous.model === "string" &&
    previous.baseUrl.trim() === request.baseUrl &&
    previous.model.trim() === request.model;
  const timeoutMs = savedLimit(request.timeoutMs, previous?.timeoutMs);
  const noProgressTimeoutMs = savedLimit(request.noProgressTimeoutMs, previous?.noProgressTimeoutMs);
  const maxOutputTokens = savedLimit(
    request.maxOutputTokens,
    previous?.maxOutputTokens,
    LlmChannel.shape.maxOutputTokens,
  );
  const reasoningEffort = LlmChannel.shape.reasoningEffort.safeParse(previous?.reasoningEffort);
  const channel = LlmChannel.safeParse({
    baseUrl: request.baseUrl,
    apiKey,
    model: request.model,
    structuredOutput: request.structuredOutput,
    ...(timeoutMs.value === undefined ? {} : { timeoutMs: timeoutMs.value }),
    ...(noProgressTimeoutMs.value === undefined ? {} : { noProgressTimeoutMs: noProgressTimeoutMs.value }),
    ...(maxOutputTokens.value === undefined ? {} : { maxOutputTokens: maxOutputTokens.value }),
    ...(isSameChannel && reasoningEffort.success && reasoningEffort.data !== undefined
      ? { reasoningEffort: reasoningEffort.data }
      : {}),
  });
  if (!channel.success) throw new RingbackError("invalid_llm_settings");
  return { primary: channel.data };
}

/**
 * The saved key, for a request that gives none. It is bound to the origin (scheme, host, port) it was saved for:
 * a device that moves the address elsewhere must give the key of the new address, so the saved one never follows.
 */
function keptKey(previous: Record<string, unknown> | undefined, baseUrl: string): string {
  const savedKey =
    typeof previous?.apiKey === "string" && previous.apiKey !== "" ? previous.apiKey : undefined;
  if (!savedKey)
    throw new RingbackError("llm_key_required", "An API key is required: none is saved on this computer.");
  if (!isSameOrigin(previous?.baseUrl, baseUrl)) {
    throw new RingbackError(
      "llm_key_required",
      `An API key is required for ${originOf(baseUrl) ?? "this address"}: the key saved on this computer is sent only to ${originOf(previous?.baseUrl) ?? "the address it was saved for"}.`,
    );
  }
  return savedKey;
}

function isGivenChannel(request: LlmTestRequest): request is PutLlmSettingsRequest {
  return "baseUrl" in request;
}

function primaryOf(raw: Readonly<RawConfig>): Record<string, unknown> | undefined {
  const llm = raw.llm;
  if (typeof llm !== "object" || llm === null) return undefined;
  const primary = (llm as Record<string, unknown>).primary;
  return typeof primary === "object" && primary !== null ? (primary as Record<string, unknown>) : undefined;
}

/**
 * The channel a connection test uses (POST /llm/test): the one a save of `request` would store, key and manual
 * timeout included, or the saved channel for `{}`. Nothing is written. No key given or saved:
 * `llm_key_required`; a saved channel that is not usable: `invalid_llm_settings`.
 */
export function testedChannel(raw: Readonly<RawConfig>, request: LlmTestRequest): LlmChannel {
  if (isGivenChannel(request)) return savedLlmSection(raw, request).primary;
  const saved = configuredChannel(raw);
  if (saved) return saved;
  const previous = primaryOf(raw);
  if (typeof previous?.apiKey !== "string" || previous.apiKey === "")
    throw new RingbackError("llm_key_required", "An API key is required: none is saved on this computer.");
  throw new RingbackError("invalid_llm_settings", "The saved language-model channel is not usable.");
}
