import type { LocalStatus } from "@ringback/protocol";
import { type DoctorCheck, fail, ok, warn } from "./doctor-check.js";

const RELAY_TIMEOUT_MS = 5_000;

/** The relay answers `GET /v1/health`, and the daemon's link to it is open. */
export async function checkRelay(
  serverUrl: string | null,
  status: LocalStatus | null,
  isLoggedIn: boolean,
): Promise<DoctorCheck> {
  if (!serverUrl || !isLoggedIn)
    return fail(
      "relay",
      "this computer has not joined a relay account: reports wait in the outbox",
      "ringback login --server <relay address> (or: pnpm start)",
      { serverUrl },
    );
  const details: Record<string, unknown> = { serverUrl, link: status?.relay.link ?? null };
  let health: Response;
  try {
    health = await fetch(new URL("/v1/health", serverUrl), { signal: AbortSignal.timeout(RELAY_TIMEOUT_MS) });
  } catch (error) {
    const reason =
      (error as { cause?: { code?: string } }).cause?.code ??
      (error instanceof Error ? error.message : String(error));
    return fail(
      "relay",
      `the relay at ${serverUrl} cannot be reached (${reason})`,
      `start the relay, or point to the right one: ringback login --server <address>`,
      details,
    );
  }
  if (!health.ok)
    return fail(
      "relay",
      `the relay at ${serverUrl} answered /v1/health with ${health.status}`,
      "check the relay's log (or the proxy in front of it)",
      details,
    );
  if (!status)
    return warn(
      "relay",
      `the relay at ${serverUrl} answers; the daemon's link is not known (daemon not running)`,
      "ringback run",
      details,
    );
  switch (status.relay.link) {
    case "open":
      return ok("relay", `${serverUrl} answers and the daemon's link is open`, details);
    case "refused":
      return fail(
        "relay",
        `the relay refuses this computer's token (removed from the account?)`,
        "ringback login --server <relay address> with a new pairing link",
        details,
      );
    case "not-logged-in":
      return fail(
        "relay",
        "the running daemon has no relay identity",
        "ringback login --server <relay address>",
        details,
      );
    default:
      return fail(
        "relay",
        `the relay answers but the daemon's link is ${status.relay.link}`,
        "wait a few seconds and run ringback doctor again; if it stays so, restart the daemon",
        details,
      );
  }
}
