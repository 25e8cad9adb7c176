import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RelayClient, relayDaemonRequest } from "@ringback/client";
import type { E2eKey } from "@ringback/e2e-crypto";
import type { SettingsRequestPlaintext } from "@ringback/protocol";
import { CONFIG_FILE } from "../../src/runtime/files/config-file.js";
import {
  COMPUTER_ID,
  type DaemonProcess,
  readDaemonKey,
  readLocalKey,
  startDaemonProcess,
  writeRelayLogin,
} from "./daemon-process.js";
import { type HostileRelay, startHostileRelay } from "./hostile-relay.js";

/** A real daemon process on `home`, linked to a relay the test runs, and the devices that ask it through it. */
export interface RelayedDaemon extends LinkedDaemon {
  /** A settings request from the device holding `deviceToken`, sealed and relayed as the web app sends it. */
  fromDevice(deviceToken: string, request: SettingsRequestPlaintext): ReturnType<typeof relayDaemonRequest>;
  close(): Promise<void>;
}

/** A daemon process linked to a hostile relay, and the keys it made. */
export interface LinkedDaemon {
  readonly relay: HostileRelay;
  readonly daemon: DaemonProcess;
  readonly key: E2eKey;
  readonly localKey: string;
}

/**
 * Logs `home` in to a hostile relay (with `config` added to daemon.json), starts the daemon (with `env` added to its
 * environment) and waits for its link.
 */
export async function startLinkedDaemon(
  home: string,
  options: { readonly config?: object; readonly env?: Record<string, string> } = {},
): Promise<LinkedDaemon> {
  const relay = await startHostileRelay();
  await writeRelayLogin(home, relay.url);
  if (options.config) {
    const path = join(home, CONFIG_FILE);
    const written = JSON.parse(await readFile(path, "utf8")) as object;
    await writeFile(path, JSON.stringify({ ...written, ...options.config }), { mode: 0o600 });
  }
  const daemon = await startDaemonProcess(home, options.env);
  await relay.linked();
  return { relay, daemon, key: await readDaemonKey(home), localKey: await readLocalKey(home) };
}

/** Logs `home` in to a hostile relay (with `config` added to daemon.json), starts the daemon and waits for its link. */
export async function startRelayedDaemon(home: string, config: object = {}): Promise<RelayedDaemon> {
  const linked = await startLinkedDaemon(home, { config });
  const { relay, daemon, key } = linked;
  return {
    ...linked,
    fromDevice: (deviceToken, request) =>
      relayDaemonRequest(new RelayClient({ serverUrl: relay.url, deviceToken }), key, COMPUTER_ID, request),
    async close() {
      await daemon.stop("SIGKILL");
      await relay.close();
    },
  };
}
