import { parseArgs } from "node:util";
import { GATHER_SECONDS_DEFAULT, PERMISSION_WAIT_MS } from "@ringback/protocol";
import { startDaemon } from "../../daemon.js";
import { resolveDataDir } from "../../runtime/files/data-dir.js";
import { createLogger } from "../../runtime/logger.js";
import { PERMISSION_GRACE_DEFAULT_MS, PERMISSION_GRACE_MAX_MS } from "../../runtime/needs-you/ring-grace.js";
import { StartError } from "../../runtime/start-error.js";
import { parseDaemonPort } from "../daemon-port.js";

export const summary = "run the daemon: the local interface on 127.0.0.1 and the outbox";
export const usage = `ringback run [--port <port>]

  --port <port>   listen on this port (1024 to 65535) and save it as localPort in daemon.json, the one place the
                  installed hooks, pnpm ring and ringback doctor read it from (default: the saved localPort, else
                  8790; 0: any free port, for this run only, which the hooks do not find); RINGBACK_PORT does the same
Environment: RINGBACK_HOME (data dir, default ~/.ringback), RINGBACK_SERVER_URL (relay address),
RINGBACK_PERMISSION_WAIT_MS (how long an agent's permission ask waits for a phone; at most and by default
${PERMISSION_WAIT_MS / 60_000} minutes), RINGBACK_PERMISSION_GRACE_MS (how long an ask waits before the phones ring,
so one the agent's own review or the keyboard answers first never rings; default ${PERMISSION_GRACE_DEFAULT_MS} ms, 0 rings at once,
at most ${PERMISSION_GRACE_MAX_MS} ms), RINGBACK_GATHER_SECONDS (the gathering window of finished calls while daemon.json
sets none: ringback rules; default ${GATHER_SECONDS_DEFAULT} s, 0 sends each call at once).`;

/** `ringback run`: runs until SIGTERM or SIGINT, then stops gracefully. */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { port: { type: "string" } }, strict: true });
  const port =
    values.port !== undefined
      ? parseDaemonPort(values.port, "--port")
      : parseDaemonPort(process.env.RINGBACK_PORT, "RINGBACK_PORT");
  const log = createLogger();
  const daemon = await startDaemon({
    dataDir: resolveDataDir(process.env),
    env: process.env,
    log,
    port,
    permissionWaitMs: millisecondsFromEnv("RINGBACK_PERMISSION_WAIT_MS", 1, PERMISSION_WAIT_MS),
    permissionGraceMs: millisecondsFromEnv("RINGBACK_PERMISSION_GRACE_MS", 0, PERMISSION_GRACE_MAX_MS),
  });
  // The signals are ours before the listening line: whoever stops the daemon as soon as it reads that line must
  // find the handler in place, or the signal's default action ends the process without a graceful stop.
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGTERM", resolve);
    process.once("SIGINT", resolve);
  });
  // Tests and service managers read this one line to learn the port.
  process.stdout.write(`ringback daemon listening on http://127.0.0.1:${daemon.port}\n`);
  const signal = await stopped;
  log(`${signal}: stopping`);
  await daemon.stop();
  log("stopped");
}

/**
 * A number of milliseconds from the environment variable `name`, `min` to `max`; undefined when unset. The permission
 * wait may only be shorter than PERMISSION_WAIT_MS: the hook's own timeout is set for it, so a longer one would be cut.
 */
function millisecondsFromEnv(name: string, min: number, max: number): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new StartError(`${name} must be ${min} to ${max} milliseconds, not "${text}"`);
  }
  return value;
}
