import type { DaemonLocation } from "./daemon-location.js";
import type { PostOutcome } from "./post-report.js";

/** How to start the daemon, for a person reading the hook's debug line. */
const START_THE_DAEMON = "start it with `ringback run` (or `pnpm start` in a clone)";
const LOOK_CLOSER = "see the daemon's log, or run `ringback doctor`";

/** The debug line for a report the hook could not send because the daemon never made its key. */
export function describeMissingKey(daemon: DaemonLocation): string {
  return `not sent: no local-api.key in ${daemon.dataDir}, so no daemon has run with this data directory: ${START_THE_DAEMON}`;
}

/**
 * The debug line for how `POST /report` ended: what happened, then what to do. A 202 body says no more than
 * `{"accepted":true}`; a refusal's `{"error":{"code","message"}}` is quoted, as the daemon says what to do.
 */
export function describeOutcome(outcome: PostOutcome, daemon: DaemonLocation, budgetMs: number): string {
  const address = `127.0.0.1:${daemon.port}`;
  switch (outcome.kind) {
    case "answered": {
      if (outcome.status >= 200 && outcome.status < 300)
        return `sent: the daemon on ${address} took the report (${outcome.status}) and will ring your devices`;
      const said = outcome.error ? ` ${outcome.error.code}: ${outcome.error.message}` : "";
      const answer = `not sent: the daemon on ${address} answered ${outcome.status}${said}`;
      if (outcome.status === 401)
        return `${answer} (the key in ${daemon.dataDir}/local-api.key is not this daemon's): run the hook with the daemon's RINGBACK_HOME`;
      return `${answer}: ${LOOK_CLOSER}`;
    }
    case "refused":
      return `not sent: the daemon is not running on ${address}: ${START_THE_DAEMON}`;
    case "timed-out":
      return `not sent: the daemon on ${address} did not answer within the hook's ${budgetMs / 1000} s budget: ${LOOK_CLOSER}`;
    case "closed":
      return `not sent: the daemon on ${address} closed the connection without answering: ${LOOK_CLOSER}`;
    case "not-http":
      return `not sent: what listens on ${address} is not the Ringback daemon (its answer is not HTTP): check localPort in ${daemon.dataDir}/daemon.json, then run \`ringback doctor\``;
    case "failed":
      return `not sent: the connection to ${address} failed (${outcome.reason}): ${LOOK_CLOSER}`;
  }
}
