import type { DaemonLocation } from "./daemon-location.js";
import type { PostOutcome } from "./post-report.js";

/** How to start the daemon, for a person reading the hook's debug line. */
const START_THE_DAEMON = "start it with `ringback run` (or `pnpm start` in a clone)";
export const LOOK_CLOSER = "see the daemon's log, or run `ringback doctor`";

/** The debug line for a report the hook could not send because the daemon never made its key. */
export function describeMissingKey(daemon: DaemonLocation, prefix = "not sent"): string {
  return `${prefix}: no local-api.key in ${daemon.dataDir}, so no daemon has run with this data directory: ${START_THE_DAEMON}`;
}

/**
 * The debug line for an answer without the daemon's proof: what answered cannot be believed, whatever it said.
 * `prefix` says what did not happen.
 */
export function describeUnprovenAnswer(
  outcome: Extract<PostOutcome, { kind: "answered" }>,
  daemon: DaemonLocation,
  prefix: string,
): string {
  const said = outcome.error ? ` ${outcome.error.code}: ${outcome.error.message}` : "";
  return `${prefix}: what answered on 127.0.0.1:${daemon.port} (${outcome.status}${said}) did not prove it is your Ringback daemon: a daemon older than this hook (update it), a daemon with another key than ${daemon.dataDir}/local-api.key, or another program on this port (it never got the key); ${LOOK_CLOSER}`;
}

/**
 * What went wrong on the way to the daemon when it gave no usable answer (any outcome but a 2xx), then what to do;
 * `prefix` says what did not happen ("not sent", "not asked"), `budget` how long the hook waited.
 */
export function describeDaemonFailure(
  outcome: PostOutcome,
  daemon: DaemonLocation,
  prefix: string,
  budget: string,
): string {
  const address = `127.0.0.1:${daemon.port}`;
  switch (outcome.kind) {
    case "answered": {
      const said = outcome.error ? ` ${outcome.error.code}: ${outcome.error.message}` : "";
      const answer = `${prefix}: the daemon on ${address} answered ${outcome.status}${said}`;
      if (outcome.status === 401)
        return `${answer} (the key in ${daemon.dataDir}/local-api.key is not this daemon's): run the hook with the daemon's RINGBACK_HOME`;
      return `${answer}: ${LOOK_CLOSER}`;
    }
    case "refused":
      return `${prefix}: the daemon is not running on ${address}: ${START_THE_DAEMON}`;
    case "timed-out":
      return `${prefix}: the daemon on ${address} did not answer within ${budget}: ${LOOK_CLOSER}`;
    case "closed":
      return `${prefix}: the daemon on ${address} closed the connection without answering: ${LOOK_CLOSER}`;
    case "not-http":
      return `${prefix}: what listens on ${address} is not the Ringback daemon (its answer is not HTTP): check localPort in ${daemon.dataDir}/daemon.json, then run \`ringback doctor\``;
    case "failed":
      return `${prefix}: the connection to ${address} failed (${outcome.reason}): ${LOOK_CLOSER}`;
  }
}

/**
 * The debug line for how `POST /report` ended: what happened, then what to do. A 202 body says no more than
 * `{"accepted":true}`; a refusal's `{"error":{"code","message"}}` is quoted, as the daemon says what to do.
 */
export function describeOutcome(outcome: PostOutcome, daemon: DaemonLocation, budgetMs: number): string {
  if (outcome.kind === "answered" && !outcome.isProven)
    return describeUnprovenAnswer(outcome, daemon, "not proven, so maybe not sent");
  if (outcome.kind === "answered" && outcome.status >= 200 && outcome.status < 300)
    return `sent: the daemon on 127.0.0.1:${daemon.port} took the report (${outcome.status}) and will ring your devices`;
  return describeDaemonFailure(outcome, daemon, "not sent", `the hook's ${budgetMs / 1000} s budget`);
}
