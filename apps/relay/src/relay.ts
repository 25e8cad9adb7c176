import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { LINK_CLOSE_CODES } from "@ringback/protocol";
import type { Hono } from "hono";
import { createRelayApp } from "./app.js";
import { type Clock, systemClock } from "./clock.js";
import { type RelayLog, stderrLog } from "./log.js";
import { DEFAULT_RELAY_CONFIG, type RelayConfig } from "./relay-config.js";
import type { RelayEnv } from "./relay-env.js";
import { DaemonLinks } from "./runtime/daemon-links.js";
import { linkHandlers } from "./runtime/link-messages.js";
import { createLinkUpgrade } from "./runtime/link-upgrade.js";
import type { RelayRuntime } from "./runtime/relay-runtime.js";
import { SettingsRelay } from "./runtime/settings-relay.js";
import { StreamHub } from "./runtime/stream-hub.js";
import { pruneHistory, sweepExpired } from "./runtime/sweeper.js";
import type { RelayStore } from "./store/store.js";

export interface RelayOptions {
  readonly store: RelayStore;
  readonly clock?: Clock;
  readonly config?: Partial<RelayConfig>;
  readonly log?: RelayLog;
}

export interface Relay {
  readonly app: Hono<RelayEnv>;
  readonly runtime: RelayRuntime;
  /** Handles an HTTP upgrade: the daemon link at `/v1/daemon/link`, anything else refused. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Expires what is due now (the timers call it too). */
  sweep(): Promise<void>;
  /** Heartbeats, stream limits, link pings, expiry and pruning on timers. */
  startTimers(): void;
  /** Stops the timers and closes every stream and link; the store stays open (its owner closes it). */
  close(): void;
}

/** Builds the relay around a store: the app, the streams, the daemon links. Listening is server.ts's job. */
export function createRelay(options: RelayOptions): Relay {
  const config: RelayConfig = { ...DEFAULT_RELAY_CONFIG, ...options.config };
  const clock = options.clock ?? systemClock;
  const log = options.log ?? stderrLog;
  const links = new DaemonLinks(log);
  const runtime: RelayRuntime = {
    store: options.store,
    clock,
    config,
    log,
    hub: new StreamHub(clock),
    links,
    settings: new SettingsRelay(links, config.settingsTimeoutMs),
  };
  links.setHandlers(linkHandlers(runtime));
  const app = createRelayApp(runtime);
  const linkUpgrade = createLinkUpgrade(runtime);
  const timers: NodeJS.Timeout[] = [];
  const reportFailure = (job: string) => (error: unknown) => {
    log.line(`${job} failed: ${error instanceof Error ? error.name : "unknown error"}`);
  };

  return {
    app,
    runtime,
    handleUpgrade: linkUpgrade.handleUpgrade,
    sweep: () => sweepExpired(runtime),
    startTimers() {
      // A stream that has not drained for four heartbeats has a client that stopped reading.
      const streamLimits = { maxDurationMs: config.streamMaxMs, stallMs: 4 * config.heartbeatMs };
      timers.push(
        setInterval(() => runtime.hub.tick(streamLimits), config.heartbeatMs),
        setInterval(() => links.pingAll(), config.linkPingMs),
        setInterval(() => {
          sweepExpired(runtime).catch(reportFailure("expiry sweep"));
        }, config.sweepIntervalMs),
        setInterval(() => {
          pruneHistory(runtime).catch(reportFailure("pruning"));
        }, config.sweepIntervalMs * PRUNE_EVERY_SWEEPS),
      );
      for (const timer of timers) timer.unref();
    },
    close() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      runtime.hub.closeAll();
      runtime.settings.closeAll();
      links.closeAll(LINK_CLOSE_CODES.shuttingDown, "relay shutting down");
      linkUpgrade.close();
    },
  };
}

/** Pruning old history is cheap but needless every sweep. */
const PRUNE_EVERY_SWEEPS = 360;
