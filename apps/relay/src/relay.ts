import { randomInt } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Agent } from "node:https";
import type { Duplex } from "node:stream";
import { LINK_CLOSE_CODES } from "@ringback/protocol";
import type { Hono } from "hono";
import { createRelayApp } from "./app.js";
import { type Clock, systemClock } from "./clock.js";
import { type RelayCluster, singleInstanceCluster } from "./cluster/relay-cluster.js";
import { type RelayLog, stderrLog } from "./log.js";
import { DEFAULT_RELAY_CONFIG, type RelayConfig } from "./relay-config.js";
import type { RelayEnv } from "./relay-env.js";
import { BodyBudget } from "./runtime/body-budget.js";
import { recordDelivery } from "./runtime/call-deliveries.js";
import { clusterHandlers } from "./runtime/cluster-handlers.js";
import { DaemonLinks } from "./runtime/daemon-links.js";
import { DiskSpace } from "./runtime/disk-space.js";
import { linkHandlers } from "./runtime/link-messages.js";
import { createLinkUpgrade } from "./runtime/link-upgrade.js";
import type { ResolveAll } from "./runtime/network-address.js";
import { PushDelivery } from "./runtime/push-delivery.js";
import { PushKeys } from "./runtime/push-keys.js";
import type { RelayRuntime } from "./runtime/relay-runtime.js";
import { SettingsRelay } from "./runtime/settings-relay.js";
import { retryFrame } from "./runtime/sse-frames.js";
import { StreamHub } from "./runtime/stream-hub.js";
import { pruneHistory, sweepExpired } from "./runtime/sweeper.js";
import type { RelayStore } from "./store/store.js";

export interface RelayOptions {
  readonly store: RelayStore;
  /** The other instances on the same database; default: none (this process alone). */
  readonly cluster?: RelayCluster;
  readonly clock?: Clock;
  readonly config?: Partial<RelayConfig>;
  readonly log?: RelayLog;
  /** The HTTPS agent for push services (tests trust their own push service's certificate with it). */
  readonly pushAgent?: Agent;
  /** How push services' names are resolved (default: the system's); tests resolve them to loopback addresses. */
  readonly pushResolveAll?: ResolveAll;
  /** Free bytes on the data directory's disk (SQLite); none: not watched (PostgreSQL, tests). */
  readonly diskFreeBytes?: () => Promise<number>;
}

export interface Relay {
  readonly app: Hono<RelayEnv>;
  readonly runtime: RelayRuntime;
  /** Handles an HTTP upgrade: the daemon link at `/v1/daemon/link`, anything else refused. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Expires what is due now (the timers call it too). */
  sweep(): Promise<void>;
  /**
   * Sends the Web Pushes due now (new events, repeats, retries) and waits for their answers, and for those of the
   * `call-settled` pushes under way (the timers send due pushes too).
   */
  pushDue(): Promise<void>;
  /** Heartbeats, stream limits, link pings, expiry and pruning on timers. */
  startTimers(): void;
  /**
   * Stops the timers, tells every stream to reconnect (a `retry:` hint, then the end of the stream) and closes
   * every link; the store and the cluster stay open (their owner closes them).
   */
  close(): void;
}

/** Builds the relay around a store: the app, the streams, the daemon links. Listening is server.ts's job. */
export function createRelay(options: RelayOptions): Relay {
  const runtime = createRuntime(options);
  const { config, links } = runtime;
  links.setHandlers(linkHandlers(runtime));
  runtime.cluster.setHandlers(clusterHandlers(runtime));
  const app = createRelayApp(runtime);
  const linkUpgrade = createLinkUpgrade(runtime);
  const timers: NodeJS.Timeout[] = [];

  return {
    app,
    runtime,
    handleUpgrade: linkUpgrade.handleUpgrade,
    sweep: () => sweepExpired(runtime),
    async pushDue() {
      await runtime.push.deliverDue();
      await runtime.push.settledSent();
    },
    startTimers() {
      timers.push(...startRelayTimers(runtime));
    },
    close() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      // Spread over one more retry interval, so the streams of a stopping instance do not all come back at once.
      runtime.hub.closeAll(() => retryFrame(config.sseRetryMs + randomInt(config.sseRetryMs + 1)));
      runtime.settings.closeAll();
      links.closeAll(LINK_CLOSE_CODES.shuttingDown, "relay shutting down");
      linkUpgrade.close();
    },
  };
}

/** Reports a background job's failure by the error's name only (a message could carry a secret). */
function failureReporter(log: RelayLog): (job: string) => (error: unknown) => void {
  return (job) => (error) => {
    log.line(`${job} failed: ${error instanceof Error ? error.name : "unknown error"}`);
  };
}

/** The relay's parts around its store: the streams, the links, settings, push, the budgets. */
function createRuntime(options: RelayOptions): RelayRuntime {
  const config: RelayConfig = { ...DEFAULT_RELAY_CONFIG, ...options.config };
  const clock = options.clock ?? systemClock;
  const log = options.log ?? stderrLog;
  const cluster = options.cluster ?? singleInstanceCluster();
  const links = new DaemonLinks(log);
  const store = options.store;
  const pushKeys = new PushKeys(store);
  const runtime: RelayRuntime = {
    store,
    cluster,
    clock,
    config,
    log,
    hub: new StreamHub(
      clock,
      (accountId, afterSeq) => store.streamSince(accountId, afterSeq),
      failureReporter(log)("reading a stream"),
      {
        readPage: (accountId, afterSeq, limit, maxBytes) =>
          store.streamPage(accountId, afterSeq, limit, maxBytes),
      },
    ),
    links,
    settings: new SettingsRelay(links, cluster, config.settingsTimeoutMs),
    pushKeys,
    bodies: new BodyBudget({
      perDevice: config.bodyBytesInFlightPerDevice,
      perAddress: config.bodyBytesInFlightPerAddress,
      total: config.bodyBytesInFlightTotal,
    }),
    disk: new DiskSpace(options.diskFreeBytes ?? null, config.diskFreeMinBytes, log),
    // A push service taking the call's push is the first delivery outcome: recorded and streamed like a report.
    push: pushDelivery(options, { config, clock, log, pushKeys }, ({ accountId, eventId, deviceId }) =>
      recordDelivery(runtime, { accountId, eventId, deviceId, outcome: "pushed" }),
    ),
  };
  return runtime;
}

function pushDelivery(
  options: RelayOptions,
  parts: {
    readonly config: RelayConfig;
    readonly clock: Clock;
    readonly log: RelayLog;
    readonly pushKeys: PushKeys;
  },
  onPushed: ConstructorParameters<typeof PushDelivery>[0]["onPushed"],
): PushDelivery {
  const { config, clock, log } = parts;
  return new PushDelivery({
    store: options.store,
    clock,
    log,
    keys: parts.pushKeys,
    transport: {
      subject: config.pushSubject,
      endpoints: { hosts: config.pushHosts, trustedOrigins: config.pushTrustedOrigins },
      connectTimeoutMs: config.pushConnectTimeoutMs,
      answerTimeoutMs: config.pushAnswerTimeoutMs,
      ...(options.pushAgent ? { agent: options.pushAgent } : {}),
      ...(options.pushResolveAll ? { resolveAll: options.pushResolveAll } : {}),
    },
    onPushed,
    appUrl: config.publicUrl,
  });
}

/** Heartbeats, stream limits, link pings, expiry, due pushes, the disk's free space and pruning, each on its timer. */
function startRelayTimers(runtime: RelayRuntime): NodeJS.Timeout[] {
  const { config, links } = runtime;
  const reportFailure = failureReporter(runtime.log);
  // A stream that has not drained for four heartbeats has a client that stopped reading.
  const streamLimits = { maxDurationMs: config.streamMaxMs, stallMs: 4 * config.heartbeatMs };
  runtime.disk.refresh().catch(reportFailure("reading the disk's free space"));
  const timers = [
    setInterval(() => runtime.hub.tick(streamLimits), config.heartbeatMs),
    setInterval(() => links.pingAll(), config.linkPingMs),
    setInterval(() => {
      sweepExpired(runtime).catch(reportFailure("expiry sweep"));
    }, config.sweepIntervalMs),
    setInterval(() => runtime.push.kick(), config.pushPollMs),
    setInterval(() => {
      runtime.disk.refresh().catch(reportFailure("reading the disk's free space"));
    }, config.diskCheckIntervalMs),
    setInterval(() => {
      pruneHistory(runtime).catch(reportFailure("pruning"));
    }, config.sweepIntervalMs * PRUNE_EVERY_SWEEPS),
  ];
  for (const timer of timers) timer.unref();
  return timers;
}

/** Pruning old history is cheap but needless every sweep. */
const PRUNE_EVERY_SWEEPS = 360;
