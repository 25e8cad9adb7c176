import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// Browsers and phones pair with the address a start serves (their web app's origin): a later start at another one
// (--lan after a plain start, the reverse, another port) leaves them behind. Each start notes its address in the
// relay's data directory, so the next one can say so.
const RECORD = "last-start.json";

/**
 * The address the previous `pnpm start` served this relay's data at, or null. Before the record was kept: the
 * address the quick start created the account at (daemon.json's `serverUrl`), when it was this computer's own.
 */
export function previousRelayUrl(relayDataDir, daemonServerUrl) {
  try {
    const { relayUrl } = JSON.parse(readFileSync(join(relayDataDir, RECORD), "utf8"));
    if (typeof relayUrl === "string") return relayUrl;
  } catch {
    // No record yet (or an unreadable one): the account's own address below.
  }
  return typeof daemonServerUrl === "string" && /^http:\/\/127\.0\.0\.1:\d+$/.test(daemonServerUrl)
    ? daemonServerUrl
    : null;
}

/** Notes the address this start serves, for the next one. */
export function rememberRelayUrl(relayDataDir, relayUrl) {
  try {
    writeFileSync(join(relayDataDir, RECORD), `${JSON.stringify({ relayUrl })}\n`);
  } catch {
    // A note for the next start's screen only: the relay runs without it.
  }
}
