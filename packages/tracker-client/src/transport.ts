import type { z } from "zod";
import { type QueryValue, trackerUrl } from "./base-url.js";
import {
  type ErrorContext,
  errorCodeFor,
  failureMessage,
  isRetryableStatus,
  type TrackerFailure,
} from "./error-mapping.js";
import { type Outcome, retryRead } from "./read-retry.js";
import { TrackerError } from "./tracker-error.js";

/** One tracker call waits at most this long for its answer before it counts as a network error. */
export const TRACKER_REQUEST_TIMEOUT_MS = 30_000;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
export type Log = (line: string) => void;

interface TrackerRequest {
  method: "GET" | "POST";
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as `X-Workspace-ID`, the tracker's workspace selection header. */
  workspaceId?: string;
  json?: unknown;
  form?: FormData;
  errors?: ErrorContext;
  timeoutMs?: number;
}

export interface TransportOptions {
  baseUrl: string;
  token: string;
  fetch: typeof fetch;
  log: Log;
  sleep: Sleep;
  timeoutMs: number;
}

export interface Transport {
  /** A read: retried on network error, 5xx and 429 after 0.5, 1 and 2 seconds. */
  read<T>(request: TrackerRequest, schema: z.ZodType<T>): Promise<T>;
  /** A write (comment, upload, quick-create, cancel): sent once, never retried, so nothing is done twice. */
  write<T>(request: TrackerRequest, schema: z.ZodType<T>): Promise<T>;
  /** Replaces the token wherever it appears, for anything that leaves this package as text. */
  redact(text: string): string;
}

function label(request: TrackerRequest): string {
  return `${request.method} ${request.path}`;
}

/** The network reason in words: the cause's code and message, or the timeout. */
function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  return typeof code === "string" && !cause.message.includes(code)
    ? `${code}: ${cause.message}`
    : cause.message;
}

export function createTransport(options: TransportOptions): Transport {
  const redact = tokenRedactor(options.token);
  const attempt = (request: TrackerRequest) => attemptRequest(options, redact, request);
  return {
    async read(request, schema) {
      const outcome = await retryRead(() => attempt(request), {
        label: label(request),
        sleep: options.sleep,
        log: (line) => options.log(redact(line)),
      });
      return settle(request, outcome, schema, redact);
    },
    async write(request, schema) {
      const outcome = await attempt(request);
      if (outcome.kind === "network") {
        options.log(
          `tracker write ${label(request)} failed (network error: ${outcome.description}); not retried`,
        );
      }
      return settle(request, outcome, schema, redact);
    },
    redact,
  };
}

type Redact = (text: string) => string;

function tokenRedactor(token: string): Redact {
  return (text) => (token === "" ? text : text.split(token).join("[redacted]"));
}

function headers(token: string, request: TrackerRequest): Record<string, string> {
  // Never X-Agent-ID / X-Task-ID: with a personal token they would turn this caller into the agent.
  const result: Record<string, string> = {
    authorization: `Bearer ${token}`,
    accept: "application/json",
  };
  if (request.workspaceId !== undefined) result["x-workspace-id"] = request.workspaceId;
  if (request.json !== undefined) result["content-type"] = "application/json";
  return result;
}

/** One try of a request: the tracker's answer, its refusal, or the network's failure (every text redacted). */
async function attemptRequest(
  options: TransportOptions,
  redact: Redact,
  request: TrackerRequest,
): Promise<Outcome> {
  const timeoutMs = request.timeoutMs ?? options.timeoutMs;
  try {
    const response = await options.fetch(trackerUrl(options.baseUrl, request.path, request.query), {
      method: request.method,
      headers: headers(options.token, request),
      body: request.form ?? (request.json === undefined ? undefined : JSON.stringify(request.json)),
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Reading the body is part of the attempt: a connection cut mid-answer is a network error too.
    const body = await readBody(response);
    if (response.ok) return { kind: "answer", body };
    const failure: TrackerFailure = {
      status: response.status,
      message: redact(failureMessage(body, `${response.status} ${response.statusText}`.trim())),
      body,
    };
    return { kind: "failure", failure };
  } catch (error) {
    return { kind: "network", error, description: redact(describeNetworkError(error, timeoutMs)) };
  }
}

/** The answer's JSON, its text when it is not JSON, or null when it is empty. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The outcome as the caller gets it: the answer checked against `schema`, or the TrackerError it amounts to. */
function settle<T>(request: TrackerRequest, outcome: Outcome, schema: z.ZodType<T>, redact: Redact): T {
  if (outcome.kind === "network") {
    throw new TrackerError(
      "tracker_unavailable",
      `tracker unreachable (${label(request)}): ${outcome.description}`,
      { cause: outcome.error },
    );
  }
  if (outcome.kind === "failure") {
    const { failure } = outcome;
    const code = errorCodeFor(failure, request.errors);
    const message = isRetryableStatus(failure.status)
      ? `tracker answered ${failure.status} (${label(request)}): ${failure.message}`
      : (request.errors?.describe?.(failure) ?? failure.message);
    throw new TrackerError(code, redact(message), { trackerStatus: failure.status });
  }
  const parsed = schema.safeParse(outcome.body);
  if (!parsed.success) {
    throw new TrackerError("tracker_unavailable", `unexpected answer from the tracker (${label(request)})`, {
      trackerStatus: 200,
      cause: parsed.error,
    });
  }
  return parsed.data;
}
