import { PairingResult } from "@ringback/protocol";
import { daemonTestEnv, freePort } from "@ringback/test-kit";
import { readLocalKey, setLocalPort } from "./daemon-files.ts";
import { DAEMON_BIN, requireBuilt } from "./paths.ts";
import {
  type CommandResult,
  runCommand,
  type ServiceProcess,
  startServiceProcess,
} from "./service-process.ts";

const LISTENING_LINE = /^ringback daemon listening on (http:\/\/127\.0\.0\.1:\d+)$/m;
const RELAY_LINK_OPEN = "relay link open";

/** The environment of a daemon under test: its own RINGBACK_HOME, nothing of the developer's RINGBACK_* or home. */
export const daemonEnv = daemonTestEnv;

/** Runs `ringback <args>` to its end on `home`; fails unless it exits 0. */
export async function runRingback(
  home: string,
  args: readonly string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<CommandResult> {
  const bin = requireBuilt(DAEMON_BIN, "@ringback/daemon");
  const result = await runCommand([bin, ...args], daemonEnv(home, options.env), options.stdin);
  if (result.code !== 0) {
    throw new Error(`ringback ${args.join(" ")} exited ${result.code ?? result.signal}:\n${result.stderr}`);
  }
  return result;
}

export interface DaemonOptions {
  /** The daemon's data dir (RINGBACK_HOME); `ringback login` has usually run on it already. */
  readonly home: string;
  /** Extra environment: DAEMON_TRACKER_API_URL, RINGBACK_CLAUDE_BIN, RINGBACK_APP_URL, ... */
  readonly env?: Record<string, string>;
  /** Default true: wait until the daemon's WebSocket link to the relay is open (false for a daemon without one). */
  readonly waitForRelayLink?: boolean;
}

export interface DaemonProcess extends ServiceProcess {
  readonly home: string;
  /** `http://127.0.0.1:<port>`: the local API. */
  readonly url: string;
  readonly localKey: string;
  /** `ringback pair --json` on this daemon's home: a fresh pairing link for one device. */
  pair(): Promise<PairingResult>;
}

/**
 * Starts the real `ringback run` on a free port written to daemon.json (where the hook and the CLI look), and
 * resolves once it listens and, by default, once its link to the relay is open.
 */
export async function startDaemon(options: DaemonOptions): Promise<DaemonProcess> {
  const bin = requireBuilt(DAEMON_BIN, "@ringback/daemon");
  await setLocalPort(options.home, await freePort());
  const service = await startServiceProcess({
    name: "daemon",
    args: [bin, "run"],
    env: daemonEnv(options.home, options.env),
    readyLine: LISTENING_LINE,
  });
  if (options.waitForRelayLink !== false) {
    await service
      .waitFor(() => service.stderr().includes(RELAY_LINK_OPEN), "its relay link", 1_500)
      .catch(async (error: unknown) => {
        await service.stop("SIGKILL");
        throw error;
      });
  }
  return {
    ...service,
    home: options.home,
    url: service.ready[1] ?? "",
    localKey: await readLocalKey(options.home),
    pair: async () => {
      const printed = await runRingback(options.home, ["pair", "--json"], { env: options.env });
      return PairingResult.parse(JSON.parse(printed.stdout));
    },
  };
}
