import type { CallStatusRequest } from "@ringback/protocol";

/** The relay gets this long to take the withdrawal; nobody waits for it (the hook already has its answer). */
const WITHDRAW_TIMEOUT_MS = 10_000;

/** What became of a withdrawal: the call ended, it had already ended (or was never there), or the relay failed. */
export type Withdrawal =
  | { readonly kind: "withdrawn" }
  | { readonly kind: "already-over" }
  | { readonly kind: "failed"; readonly reason: string };

/**
 * Tells the relay a "needs you" call no longer waits (its agent stopped asking: the hook went away, the wait ran out,
 * the person is back at the keyboard): `POST /v1/calls/<eventId>/status` `ended`, as this computer. The relay streams
 * the change to every device, which stops ringing, and pushes `call-settled` to close the notifications of apps that
 * are closed. A call that had already ended is left as it is.
 */
export async function withdrawPermissionCall(
  relay: { readonly serverUrl: string; readonly deviceToken: string },
  eventId: string,
  timeoutMs = WITHDRAW_TIMEOUT_MS,
): Promise<Withdrawal> {
  const body: CallStatusRequest = { status: "ended" };
  let response: Response;
  try {
    response = await fetch(new URL(`/v1/calls/${encodeURIComponent(eventId)}/status`, relay.serverUrl), {
      method: "POST",
      headers: { authorization: `Bearer ${relay.deviceToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { kind: "failed", reason: error instanceof Error ? error.name : "unknown error" };
  }
  const answer = (await response.json().catch(() => null)) as { won?: unknown } | null;
  if (response.ok) return answer?.won === false ? { kind: "already-over" } : { kind: "withdrawn" };
  if (response.status === 404 || response.status === 409) return { kind: "already-over" };
  return { kind: "failed", reason: `the relay answered ${response.status}` };
}
