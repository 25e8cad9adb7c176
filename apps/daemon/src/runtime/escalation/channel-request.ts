import type { RungAnswer } from "@ringback/protocol";

/** How long a channel's service has to answer one request; a ladder's next rung must not wait on a silent one. */
const CHANNEL_REQUEST_TIMEOUT_MS = 10_000;

/** A service's answer: its status and JSON body (null when the body is not JSON). */
export type ChannelResponse =
  | { kind: "answered"; status: number; body: unknown }
  | { kind: "unreachable"; reason: string };

/**
 * One HTTP request to a channel's service. Never throws, and never says the address: a Telegram bot token lives in
 * the URL's path, so a reason names the failure only (timeout, refused connection), never where it went.
 */
export async function channelRequest(
  url: URL,
  init: { method: "GET" | "POST"; headers?: Record<string, string>; body?: string },
  signal?: AbortSignal,
): Promise<ChannelResponse> {
  const timeout = AbortSignal.timeout(CHANNEL_REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      ...init,
      redirect: "error",
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await response.text();
    return { kind: "answered", status: response.status, body: parsedJson(text) };
  } catch (error) {
    if (timeout.aborted) return { kind: "unreachable", reason: "no answer in time" };
    if (signal?.aborted) return { kind: "unreachable", reason: "stopped: the call was answered" };
    return { kind: "unreachable", reason: networkReason(error) };
  }
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The cause's code (ECONNREFUSED, ENOTFOUND), which names no address; a redirect is refused as one. */
function networkReason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === "string") return `network error (${cause.code})`;
  if (error instanceof TypeError && /redirect/i.test(error.message))
    return "the service answered with a redirect";
  return "network error";
}

/** A service's answer as a rung's: 2xx is sent, anything else refused with the service's own reason where it gives one. */
export function rungAnswerOf(
  response: ChannelResponse,
  reasonOf: (body: unknown) => string | null,
): RungAnswer {
  if (response.kind === "unreachable") return { outcome: "unreachable", reason: response.reason };
  if (response.status >= 200 && response.status < 300) return { outcome: "sent", status: response.status };
  const reason = reasonOf(response.body) ?? `HTTP ${response.status}`;
  return { outcome: "refused", status: response.status, reason: reason.slice(0, 200) };
}
