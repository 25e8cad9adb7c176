import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type E2eKey, parseKey } from "@ringback/e2e-crypto";
import { DaemonConfig } from "@ringback/protocol";
import { type ChildResult, daemonTestEnv, runToEnd, StartedChild } from "@ringback/test-kit";

/** The built `ringback` bin of apps/daemon (the relay tests run it as a person does, never import it). */
const DAEMON_BIN = fileURLToPath(new URL("../../../daemon/dist/main.js", import.meta.url));
/** Where `ringback login` writes the computer's identity and key. */
const CONFIG_FILE = "daemon.json";
const LISTENING = /listening on (http:\/\/\S+)/;

function requireBuilt(path: string, name: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing: run "pnpm --filter ${name} build" first.`);
  return path;
}

/** The environment of a daemon under test: its own home, nothing from the developer's RINGBACK_*. */
export const daemonEnv = (home: string): NodeJS.ProcessEnv => daemonTestEnv(home);

/** Runs `ringback <args>` to its end. */
export function runDaemonCli(home: string, args: readonly string[]): Promise<ChildResult> {
  return runToEnd({ args: [requireBuilt(DAEMON_BIN, "@ringback/daemon"), ...args], env: daemonEnv(home) });
}

/** The computer's identity and end-to-end key, as `ringback login` wrote them to daemon.json. */
export async function readDaemonIdentity(home: string): Promise<{ deviceId: string; key: E2eKey }> {
  const config = DaemonConfig.parse(JSON.parse(await readFile(join(home, CONFIG_FILE), "utf8")));
  if (!config.relay || !config.e2e) throw new Error("daemon.json has no relay identity: log in first.");
  return { deviceId: config.relay.deviceId, key: parseKey(config.e2e.key) };
}

/** Sets `localPort` in daemon.json, keeping the rest: `ringback run` listens there and the hook looks there. */
export async function setLocalPort(home: string, port: number): Promise<void> {
  const path = join(home, CONFIG_FILE);
  const config = JSON.parse(await readFile(path, "utf8")) as object;
  await writeFile(path, JSON.stringify({ ...config, localPort: port }), { mode: 0o600 });
}

/** `ringback run` as a child process, its log kept to wait on. */
export class DaemonProcess extends StartedChild {
  /**
   * Starts `ringback run` on daemon.json's localPort; resolves once it listens. `env` adds to the daemon's own
   * environment, e.g. RINGBACK_CLAUDE_BIN for a stand-in agent CLI.
   */
  static async start(home: string, env: NodeJS.ProcessEnv = {}): Promise<DaemonProcess> {
    const daemon = new DaemonProcess({
      args: [requireBuilt(DAEMON_BIN, "@ringback/daemon"), "run"],
      env: { ...daemonEnv(home), ...env },
      name: "the daemon",
    });
    await daemon.ready(LISTENING);
    return daemon;
  }

  get url(): string {
    const url = this.stdout.match(LISTENING)?.[1];
    if (!url) throw new Error("The daemon has not printed its address.");
    return url;
  }

  /** Resolves once `text` appears `count` times in the daemon's log (`checks`: see the kit's `eventually`). */
  async waitForLog(text: string, count = 1, checks?: number): Promise<void> {
    await this.waitFor(
      () => this.stderr.split(text).length - 1 >= count,
      `${count} x "${text}" in its log`,
      checks,
    );
  }
}
