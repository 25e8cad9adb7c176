import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  makeTemporaryDirectory,
  type RelayScript,
  type ScriptedRelay,
  startScriptedRelay,
} from "@ringback/test-kit";
import { type DaemonProcess, startDaemonProcess } from "./daemon-process.js";

/** The relay identity `link()` writes to daemon.json; the scripted relay takes any token. */
const TEST_RELAY_IDENTITY = {
  deviceToken: "device-token-for-tests-0123456789",
  accountId: "a",
  deviceId: "d",
};

/**
 * A daemon's data dir whose daemons post to a scripted relay (the kit's, through RINGBACK_SERVER_URL): the setup of
 * the tests that run `ringback run` as a process. Disposing kills every daemon it started, closes the relay and
 * deletes the directory (unless the test gave its own `path`).
 */
export interface RelayedHome extends AsyncDisposable {
  /** The daemon's data dir (RINGBACK_HOME). */
  readonly path: string;
  readonly relay: ScriptedRelay;
  /** Writes daemon.json (600) linked to the relay, with `extra` fields such as `llm`. */
  link(extra?: Record<string, unknown>): Promise<void>;
  /** Starts `ringback run --port 0` on the directory, posting to the relay; `env` adds to its environment. */
  startDaemon(env?: Record<string, string>): Promise<DaemonProcess>;
}

export async function makeRelayedHome(
  options: { path?: string; script?: RelayScript } = {},
): Promise<RelayedHome> {
  const directory = options.path === undefined ? await makeTemporaryDirectory() : null;
  const path = options.path ?? directory?.path ?? "";
  const relay = await startScriptedRelay(options.script);
  const daemons: DaemonProcess[] = [];
  return {
    path,
    relay,
    link: (extra = {}) =>
      writeFile(join(path, "daemon.json"), JSON.stringify({ relay: TEST_RELAY_IDENTITY, ...extra }), {
        mode: 0o600,
      }),
    async startDaemon(env = {}) {
      const daemon = await startDaemonProcess(path, { RINGBACK_SERVER_URL: relay.url, ...env });
      daemons.push(daemon);
      return daemon;
    },
    async [Symbol.asyncDispose]() {
      for (const daemon of daemons.splice(0)) await daemon.kill();
      await relay.close();
      await directory?.remove();
    },
  };
}
