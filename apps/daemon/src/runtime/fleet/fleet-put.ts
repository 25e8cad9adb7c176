import { parseRetryAfterMs, RELAY_SEND_TIMEOUT_MS } from "@ringback/outbox";
import type { FleetStatePut } from "@ringback/protocol";

/** How a `PUT /v1/daemon/fleet` ended. */
export type FleetPutOutcome =
  | { kind: "stored" }
  /** Not now (no answer, a 5xx, 429): the latest state is put again later, after `retryAfterMs` when the relay said. */
  | { kind: "retry"; reason: string; retryAfterMs?: number }
  /** The relay refused this state (a 4xx): sending it again would not help; the next change is sent as usual. */
  | { kind: "refused"; reason: string }
  /** No relay identity yet (`ringback login`): nothing to send to. */
  | { kind: "not-linked" };

/** Puts this computer's sealed fleet state on the relay, which keeps the latest one and passes it on. */
export async function putFleetState(
  relay: { serverUrl: string; deviceToken: string },
  body: FleetStatePut,
  now: () => number = Date.now,
): Promise<FleetPutOutcome> {
  let response: Response;
  try {
    response = await fetch(`${relay.serverUrl}/v1/daemon/fleet`, {
      method: "PUT",
      headers: { authorization: `Bearer ${relay.deviceToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(RELAY_SEND_TIMEOUT_MS),
    });
  } catch (error) {
    return { kind: "retry", reason: error instanceof Error ? error.message : String(error) };
  }
  const answer = await response.text().catch(() => "");
  if (response.ok) return { kind: "stored" };
  const reason = `${response.status}${errorCodeOf(answer)}`;
  if (response.status === 429 || response.status >= 500) {
    const retryAfterMs = parseRetryAfterMs(response.headers.get("retry-after"), now());
    return { kind: "retry", reason, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  return { kind: "refused", reason };
}

function errorCodeOf(answer: string): string {
  try {
    const code = (JSON.parse(answer) as { error?: { code?: unknown } }).error?.code;
    return typeof code === "string" ? ` ${code}` : "";
  } catch {
    return "";
  }
}
