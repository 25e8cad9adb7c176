import { type CallRing, DaemonEventPost, DaemonTrackerReportPost, ErrorBody } from "@ringback/protocol";
import { parseRetryAfterMs } from "./backoff.js";
import type { OutboxEntry } from "./entry.js";
import type { SendFunction, SendOutcome } from "./sender.js";
import { describeFailure } from "./sender.js";

/** A send that has not been answered by then counts as a network error and is retried. */
export const RELAY_SEND_TIMEOUT_MS = 30_000;
/** Characters of a relay's error message kept in a drop reason. */
const RELAY_MESSAGE_MAX_CHARS = 200;

export interface RelaySenderOptions {
  /** The relay's base address; a path prefix is kept. */
  serverUrl: string;
  /** Sent as `Authorization: Bearer <deviceToken>` when given. */
  deviceToken?: string;
  /** Seals `{report, brief}` of the entry: returns the `e2e1.` ciphertext. */
  seal(entry: Readonly<OutboxEntry>): Promise<string>;
  /**
   * What the relay sees of a tracker task id, by which it rings a task once across computers: e2e-crypto's
   * `taskIdDigest` under the account's key, so the relay can neither read the id nor check a guess. Without it the
   * id itself is posted.
   */
  taskIdForRelay?(taskId: string): Promise<string>;
  /**
   * How the relay is to ring the call: `quiet` keeps and lists it without a push (a round-up-only or silent
   * project). Without it, or for `ring`, the post carries no `ring` field, as before.
   */
  ringOf?(entry: Readonly<OutboxEntry>): CallRing;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}

/**
 * A `SendFunction` that posts to the relay: `POST /v1/daemon/events` (`DaemonEventPost`), or
 * `POST /v1/daemon/tracker-reports` (`DaemonTrackerReportPost`, with the task id as `taskIdForRelay` makes it) for
 * tracker reports.
 */
export function createRelaySender(options: RelaySenderOptions): SendFunction {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const baseUrl = options.serverUrl.replace(/\/+$/, "");
  return async (entry, signal) => {
    const { report } = entry;
    const sealed = await options.seal(entry);
    const isQuiet = options.ringOf?.(entry) === "quiet";
    const routing = {
      eventId: report.eventId,
      source: report.source,
      occurredAt: report.occurredAt,
      sealed,
      ...(isQuiet ? { ring: "quiet" as const } : {}),
    };
    const isTracker = report.source === "tracker";
    const taskId = report.tracker?.taskId;
    const parsed = isTracker
      ? DaemonTrackerReportPost.safeParse({
          ...routing,
          taskId:
            taskId !== undefined && options.taskIdForRelay ? await options.taskIdForRelay(taskId) : taskId,
        })
      : DaemonEventPost.safeParse(routing);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        kind: "drop",
        reason: `not a valid relay post at ${issue?.path.join(".")}: ${issue?.message}`,
      };
    }
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.deviceToken) headers.authorization = `Bearer ${options.deviceToken}`;
    let response: Response;
    try {
      response = await fetchImpl(
        `${baseUrl}${isTracker ? "/v1/daemon/tracker-reports" : "/v1/daemon/events"}`,
        {
          method: "POST",
          headers,
          body: JSON.stringify(parsed.data),
          redirect: "manual",
          signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs ?? RELAY_SEND_TIMEOUT_MS)]),
        },
      );
    } catch (error) {
      return { kind: "retry", reason: `network error: ${describeFailure(error)}` };
    }
    return classifyResponse(response);
  };
}

/** The spec's Sent row: 2xx sent; network error, 5xx, 429 retried; 409 duplicate_task done; other 4xx dropped. */
async function classifyResponse(response: Response): Promise<SendOutcome> {
  const { status } = response;
  const text = await response.text().catch(() => "");
  if (status >= 200 && status < 300) return { kind: "sent" };
  const error = readErrorBody(text);
  const described = `relay answered ${status}${error.code ? ` ${error.code}` : ""}`;
  if (status === 409 && error.code === "duplicate_task") return { kind: "duplicate" };
  if (status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfterMs(response.headers.get("retry-after"), Date.now());
    return retryAfterMs === undefined
      ? { kind: "retry", reason: described }
      : { kind: "retry", reason: described, retryAfterMs };
  }
  if (status >= 400) {
    const message = error.message ? `: ${error.message.slice(0, RELAY_MESSAGE_MAX_CHARS)}` : "";
    return { kind: "drop", reason: `${described}${message}` };
  }
  // 1xx/3xx: a relay address pointing somewhere else; retrying keeps the report until it is corrected.
  return { kind: "retry", reason: `${described} (unexpected)` };
}

function readErrorBody(text: string): Partial<ErrorBody["error"]> {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.error : {};
  } catch {
    return {};
  }
}
