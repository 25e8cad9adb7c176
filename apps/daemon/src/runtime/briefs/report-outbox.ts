import {
  type GenerateBrief,
  isOutboxError,
  Outbox,
  type OutboxOptions,
  type SendFunction,
} from "@ringback/outbox";
import type { ConfigFile } from "../files/config-file.js";
import type { Logger } from "../logger.js";
import { relayAddress } from "../relay-address.js";
import type { RelayConnection } from "../relay-link/relay-connection.js";
import { StartError } from "../start-error.js";

export interface ReportOutboxOptions {
  readonly dataDir: string;
  readonly config: ConfigFile;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  readonly relayConnection: RelayConnection;
  /** Writes a report's brief with the user's model. */
  readonly generateBrief: GenerateBrief;
  /** Sends a report to the relay: made again after a login, which may change the relay and the identity. */
  readonly relaySender: () => SendFunction;
  /** When an accepted report may first be sent (the gathering window); absent: at once. */
  readonly holdUntil?: OutboxOptions["holdUntil"];
}

/**
 * The outbox of reported turns, started: unfinished reports resume, each gets its brief from the user's model, is
 * sealed and sent to the relay (once there is one: a daemon started before `ringback login` sends its waiting
 * reports as soon as the login goes through it). A damaged outbox or a second daemon on the data dir stops the start.
 */
export async function startReportOutbox(options: ReportOutboxOptions): Promise<Outbox> {
  const { dataDir, config, env, log } = options;
  const hasRelay = relayAddress(config, env) !== undefined;
  const outbox = new Outbox({
    directory: dataDir,
    generateBrief: options.generateBrief,
    send: hasRelay ? options.relaySender() : undefined,
    holdUntil: options.holdUntil,
    log,
  });
  options.relayConnection.afterLogin(() => outbox.startSending(options.relaySender()));
  if (!hasRelay) {
    log("no relay configured (serverUrl in daemon.json or RINGBACK_SERVER_URL): reports wait in the outbox");
  }
  await outbox.start().catch((error: unknown) => {
    throw startErrorOf(error, dataDir);
  });
  return outbox;
}

/** A damaged outbox.json (it holds the user's reports) or a second daemon on this data dir, said as such. */
function startErrorOf(error: unknown, dataDir: string): unknown {
  if (isOutboxError(error) && error.code === "locked") {
    return new StartError(
      `a ringback daemon is already running for ${dataDir} (${error.message}): your agents ring through that one; ` +
        "stop it first to start another (ringback doctor shows it)",
      { cause: error },
    );
  }
  if (isOutboxError(error) && error.code === "corrupt_store")
    return new StartError(error.message, { cause: error });
  return error;
}
