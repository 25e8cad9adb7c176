import { z } from "zod";
import { CONCURRENT_BRIEF_GENERATIONS } from "./limits.js";

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;

/**
 * Where a language model runs, as its address tells: `local` for loopback, private-network and link-local
 * addresses and local names (a model on this computer or the home network, usually one at a time on a CPU or a
 * small GPU); `hosted` for anything else (a provider that serves many requests at once).
 */
export const ModelEndpointKind = z.enum(["local", "hosted"]);
export type ModelEndpointKind = z.infer<typeof ModelEndpointKind>;

/** How long one model call may take (spec: Model call timeout), per endpoint kind, when the channel sets nothing. */
export interface ModelCallLimits {
  /** The overall cap of one call, from sending the request to the last token. */
  timeoutMs: number;
  /** The longest wait for the next token once the model has started answering. */
  noProgressTimeoutMs: number;
}

/**
 * The defaults. A local model on a laptop's CPU reads a 3,000-token prompt in 30 s to several minutes and writes
 * 5-15 tokens/s, so its cap is generous; a stalled stream is still noticed within a minute. A hosted model
 * answers within seconds; two minutes leave room for a slow hour or a reasoning model.
 */
export const MODEL_CALL_LIMITS_DEFAULT_MS: Readonly<Record<ModelEndpointKind, Readonly<ModelCallLimits>>> = {
  local: { timeoutMs: 10 * MINUTE_MS, noProgressTimeoutMs: 60 * SECOND_MS },
  hosted: { timeoutMs: 2 * MINUTE_MS, noProgressTimeoutMs: 30 * SECOND_MS },
};

/** The least and the most either limit may be set to. */
export const MODEL_CALL_LIMIT_MIN_MS = SECOND_MS;
export const MODEL_CALL_LIMIT_MAX_MS = 60 * MINUTE_MS;

/** A call is said to fit the overall limit only with this margin: one near the limit fails on a busier minute. */
export const MODEL_CALL_FIT_MARGIN = 1.25;

/**
 * The least overall limit, in whole seconds (as milliseconds), that a call estimated to take `estimatedMs` fits
 * with the margin: what a connection test tells to set when a report will not fit. It may pass
 * `MODEL_CALL_LIMIT_MAX_MS`; such a call needs a faster model instead.
 */
export function timeoutToFitMs(estimatedMs: number): number {
  return Math.ceil((estimatedMs * MODEL_CALL_FIT_MARGIN) / SECOND_MS) * SECOND_MS;
}

/** A limit as stored and as set through `PUT /llm/settings` (milliseconds, 1 s to 1 h). */
export const ModelCallLimitMs = z.number().int().min(MODEL_CALL_LIMIT_MIN_MS).max(MODEL_CALL_LIMIT_MAX_MS);

/**
 * The output cap (`max_tokens`) a person may set for every brief call: at least what a short brief needs, at most
 * what a model that thinks first may spend. Without one, a local model gets a cap sized to the report and a hosted
 * one none (its reasoning counts in the cap, and OpenAI's refuse `max_tokens`).
 */
export const MODEL_OUTPUT_TOKENS_MIN = 256;
export const MODEL_OUTPUT_TOKENS_MAX = 32_768;

/** An output cap as stored and as set through `PUT /llm/settings`. */
export const ModelOutputTokens = z.number().int().min(MODEL_OUTPUT_TOKENS_MIN).max(MODEL_OUTPUT_TOKENS_MAX);

/** Briefs at once against one endpoint of each kind: a local server works on one request at a time. */
export const CONCURRENT_BRIEFS_PER_ENDPOINT: Readonly<Record<ModelEndpointKind, number>> = {
  local: 1,
  hosted: CONCURRENT_BRIEF_GENERATIONS,
};

function isPrivateIpv4(host: string): boolean {
  const parts = host.split(".").map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255))
    return false;
  const [a = -1, b = -1] = parts;
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    // Carrier-grade NAT range, which Tailscale and similar overlay networks use for the user's own machines.
    (a === 100 && b >= 64 && b <= 127)
  );
}

function isPrivateIpv6(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (address === "::1" || address === "::") return true;
  // An IPv4-mapped address, as the URL parser writes it: ::ffff:c0a8:2 is 192.168.0.2.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (mapped?.[1] && mapped[2]) {
    const high = Number.parseInt(mapped[1], 16);
    const low = Number.parseInt(mapped[2], 16);
    return isPrivateIpv4(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  // fc00::/7 (unique local) and fe80::/10 (link-local).
  return /^f[cd][0-9a-f]{0,2}:/.test(address) || /^fe[89ab][0-9a-f]?:/.test(address);
}

const LOCAL_NAME_SUFFIXES = [".localhost", ".local", ".lan", ".internal", ".home.arpa"];

/**
 * `local` when the address is loopback (127.0.0.0/8, ::1, localhost), private (10/8, 172.16/12, 192.168/16,
 * 100.64/10, fc00::/7), link-local, a local name (`.local`, `.lan`, `.internal`, `.home.arpa`) or a name without
 * a dot (a container's service name such as `ollama`); `hosted` otherwise, and for an address that is not a URL.
 */
export function modelEndpointKind(baseUrl: string): ModelEndpointKind {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return "hosted";
  }
  if (host.startsWith("[")) return isPrivateIpv6(host) ? "local" : "hosted";
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return isPrivateIpv4(host) ? "local" : "hosted";
  const name = host.replace(/\.$/, "");
  if (name === "localhost" || !name.includes(".")) return "local";
  return LOCAL_NAME_SUFFIXES.some((suffix) => name.endsWith(suffix)) ? "local" : "hosted";
}

/** The limits of one call: what the channel sets, else the default of its endpoint kind. */
export function modelCallLimits(channel: {
  baseUrl: string;
  timeoutMs?: number | undefined;
  noProgressTimeoutMs?: number | undefined;
}): ModelCallLimits & { endpoint: ModelEndpointKind } {
  const endpoint = modelEndpointKind(channel.baseUrl);
  const defaults = MODEL_CALL_LIMITS_DEFAULT_MS[endpoint];
  return {
    endpoint,
    timeoutMs: channel.timeoutMs ?? defaults.timeoutMs,
    noProgressTimeoutMs: channel.noProgressTimeoutMs ?? defaults.noProgressTimeoutMs,
  };
}
