import type { Clock } from "../clock.js";
import type { RelayLog } from "../log.js";
import type { RelayConfig } from "../relay-config.js";
import type { RelayStore, StreamEntry } from "../store/store.js";
import type { DaemonLinks } from "./daemon-links.js";
import type { SettingsRelay } from "./settings-relay.js";
import type { StreamHub } from "./stream-hub.js";

/** What the routes and runtime jobs share: the store, time, configuration, and this process's connections. */
export interface RelayRuntime {
  readonly store: RelayStore;
  readonly clock: Clock;
  readonly config: RelayConfig;
  readonly log: RelayLog;
  readonly hub: StreamHub;
  readonly links: DaemonLinks;
  readonly settings: SettingsRelay;
}

/** Sends committed entries to every stream of their account. */
export function publish(runtime: RelayRuntime, entries: readonly StreamEntry[]): void {
  runtime.hub.publish(entries);
}
