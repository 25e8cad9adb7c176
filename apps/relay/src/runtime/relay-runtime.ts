import type { Clock } from "../clock.js";
import type { RelayCluster } from "../cluster/relay-cluster.js";
import type { RelayLog } from "../log.js";
import type { RelayConfig } from "../relay-config.js";
import type { RelayStore, StreamEntry } from "../store/store.js";
import type { BodyBudget } from "./body-budget.js";
import type { DaemonLinks } from "./daemon-links.js";
import type { DiskSpace } from "./disk-space.js";
import type { PushDelivery } from "./push-delivery.js";
import type { PushKeys } from "./push-keys.js";
import type { SettingsRelay } from "./settings-relay.js";
import type { StreamHub } from "./stream-hub.js";

/**
 * What the routes and runtime jobs share: the store, time, configuration, this process's connections, and the
 * cluster of instances on the same database.
 */
export interface RelayRuntime {
  readonly store: RelayStore;
  readonly cluster: RelayCluster;
  readonly clock: Clock;
  readonly config: RelayConfig;
  readonly log: RelayLog;
  readonly hub: StreamHub;
  readonly links: DaemonLinks;
  readonly settings: SettingsRelay;
  readonly pushKeys: PushKeys;
  readonly push: PushDelivery;
  /** Request bodies held at once. */
  readonly bodies: BodyBudget;
  /** The data directory's free space. */
  readonly disk: DiskSpace;
}

/**
 * Sends committed entries to every stream of their account on this instance. (Other instances learn of them
 * from the store's own announcement, made in the same transaction.)
 */
export function publish(runtime: RelayRuntime, entries: readonly StreamEntry[]): void {
  runtime.hub.publish(entries);
}
