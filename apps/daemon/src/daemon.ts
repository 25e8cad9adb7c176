import type { Outbox } from "@ringback/outbox";
import { createApp } from "./app.js";
import type { AppContext } from "./app-context.js";
import { type FinishedCalls, startFinishedCalls } from "./runtime/briefs/finished-calls.js";
import { systemLanguage } from "./runtime/briefs/system-language.js";
import { channelEndpoints } from "./runtime/escalation/channel-endpoints.js";
import { EscalationRuntime } from "./runtime/escalation/escalation-runtime.js";
import { ConfigFile } from "./runtime/files/config-file.js";
import { ensureDataDir } from "./runtime/files/data-dir.js";
import { SessionsFile } from "./runtime/files/sessions-file.js";
import { FleetRuntime } from "./runtime/fleet/fleet-runtime.js";
import { failedTaskChange } from "./runtime/fleet/report-changes.js";
import type { ReportQueue } from "./runtime/fleet/watched-queue.js";
import { loadLocalKey } from "./runtime/keys/local-key.js";
import type { Logger } from "./runtime/logger.js";
import { ModelSlots } from "./runtime/model/model-slots.js";
import { ModelTestProgress } from "./runtime/model/model-test/test-progress.js";
import { TestsPerMinute } from "./runtime/model/model-test/tests-per-minute.js";
import { PendingAsks } from "./runtime/needs-you/pending-asks.js";
import { PermissionRuntime } from "./runtime/needs-you/permission-runtime.js";
import { IdleAwayReader } from "./runtime/presence/idle-away.js";
import { RelayConnection } from "./runtime/relay-link/relay-connection.js";
import { TrackerQuestions } from "./runtime/tracker/tracker-questions.js";
import { createTrackerRuntime, type TrackerRuntime } from "./runtime/tracker/tracker-runtime.js";
import { listen } from "./server.js";

export interface DaemonOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Overrides `localPort` from daemon.json (`--port`, `RINGBACK_PORT`); 0 picks a free port. */
  port?: number;
  /** How long a permission ask waits for a phone (PERMISSION_WAIT_MS unless shorter, for tests). */
  permissionWaitMs?: number;
  /** How long a permission ask waits before it rings (PERMISSION_GRACE_DEFAULT_MS unless set). */
  permissionGraceMs?: number;
  /** The least time between two fleet updates to the relay (FLEET_UPDATE_MIN_INTERVAL_MS unless set, for tests). */
  fleetUpdateIntervalMs?: number;
}

export interface PreparedDaemon {
  context: AppContext;
  outbox: Outbox;
  /** The port from the options, else daemon.json's `localPort`. */
  port: number;
  /** The tracker questions this computer rang about (their briefs, seals and replies read them). */
  trackerQuestions: TrackerQuestions;
  /** Sets the port the Host check accepts (once listening on port 0). */
  setListeningPort(port: number): void;
  stop(): Promise<void>;
}

/**
 * Everything but the socket: data dir, config, local key, sessions, and the outbox started (unfinished
 * reports resume). Route tests use this with `app.request()`; `startDaemon` adds the listener.
 */
export async function prepareDaemon(options: DaemonOptions): Promise<PreparedDaemon> {
  const { dataDir, env, log } = options;
  await ensureDataDir(dataDir, log);
  const config = await ConfigFile.load(dataDir, log);
  const localKey = await loadLocalKey(dataDir, log);
  const sessions = await SessionsFile.load(dataDir, log);
  const trackerQuestions = await TrackerQuestions.load(dataDir, log);
  const language = systemLanguage(env);
  const pendingAsks = new PendingAsks();
  const fleet = await loadFleet(options, config);
  const relayConnection = await RelayConnection.load({ dataDir, config, env, log, sessions, pendingAsks });
  const escalation = new EscalationRuntime({ config, env, endpoints: channelEndpoints(env), log });
  const idleAway = IdleAwayReader.forThisComputer(config, env);
  const permission = createPermissionRuntime(options, {
    config,
    pendingAsks,
    language,
    escalation,
    idleAway,
    fleet,
  });
  const modelSlots = new ModelSlots();
  const finished = await startFinishedCalls({
    dataDir,
    config,
    env,
    log,
    language,
    modelSlots,
    trackerQuestions,
    relayConnection,
    escalation,
    idleAway,
    fleet,
  });
  const { outbox, callRules } = finished;
  const tracker = await startTracker(options, {
    config,
    trackerQuestions,
    queue: finished.queue,
    fleet,
    relayConnection,
  });
  relayConnection.onLinkOpen(() => fleet.linkOpened());
  const port = options.port ?? config.config.localPort;
  let listeningPort = port;
  const context: AppContext = {
    config,
    localKey,
    port: () => listeningPort,
    // Hook reports pass a check for tracker-task turns the hook could not recognise (hook-turns.ts).
    outbox: tracker.hookTurns.observe(relayConnection.rememberingReports(finished.queue)),
    outboxState: outbox,
    sessions,
    tracker,
    relay: relayConnection,
    permission,
    escalation,
    fleet,
    callRules,
    systemLanguage: language,
    modelSlots,
    modelTests: new TestsPerMinute(),
    modelTestProgress: new ModelTestProgress(),
    log,
    now: () => new Date(),
  };
  return {
    context,
    outbox,
    port,
    trackerQuestions,
    setListeningPort: (value) => {
      listeningPort = value;
    },
    stop: () =>
      stopInOrder({ permission, finished, relayConnection, tracker, sessions, trackerQuestions, fleet }),
  };
}

/** Needs-you: the held permission asks, their calls (and the escalation ladder) and the phone's decisions. */
function createPermissionRuntime(
  options: DaemonOptions,
  parts: {
    config: ConfigFile;
    pendingAsks: PendingAsks;
    language: string;
    escalation: EscalationRuntime;
    idleAway: IdleAwayReader;
    fleet: FleetRuntime;
  },
): PermissionRuntime {
  const { dataDir, env, log } = options;
  return new PermissionRuntime({
    dataDir,
    config: parts.config,
    env,
    pendingAsks: parts.pendingAsks,
    systemLanguage: parts.language,
    log,
    now: () => new Date(),
    waitMs: options.permissionWaitMs,
    graceMs: options.permissionGraceMs,
    escalation: parts.escalation,
    idleAway: parts.idleAway,
    fleet: parts.fleet,
  });
}

export interface RunningDaemon {
  port: number;
  /** Stops taking requests, then stops the outbox (briefs in progress are regenerated at next start). */
  stop(): Promise<void>;
}

export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const prepared = await prepareDaemon(options);
  const app = createApp(prepared.context);
  let server: Awaited<ReturnType<typeof listen>>;
  try {
    server = await listen(app, prepared.port);
  } catch (error) {
    await prepared.stop();
    throw error;
  }
  prepared.setListeningPort(server.port);
  await saveChosenPort(prepared.context, options.port);
  const { localKey, port } = prepared.context;
  prepared.context.relay.start({ app, localKey, port });
  return {
    port: server.port,
    stop: async () => {
      // Held permission asks end first: the server's close waits for every open request.
      prepared.context.permission.stop();
      await server.close();
      await prepared.stop();
    },
  };
}

/**
 * A port chosen for this run (`--port`, `RINGBACK_PORT`) becomes daemon.json's `localPort`: the one place the installed
 * hooks, `pnpm ring` and `ringback doctor` read it from, so they follow the move. Port 0 (any free one, for tests) is
 * this run's only.
 */
async function saveChosenPort(context: AppContext, chosen: number | undefined): Promise<void> {
  if (chosen === undefined || chosen === 0 || chosen === context.config.config.localPort) return;
  const previous = context.config.config.localPort;
  await context.config.update((raw) => ({ ...raw, localPort: chosen }));
  context.log(
    `localPort ${chosen} saved in daemon.json (was ${previous}): the installed hooks, pnpm ring and ringback doctor find the daemon there`,
  );
}

/** This computer's agents as the fleet keeps them, sent to the relay at most once per interval. */
function loadFleet(options: DaemonOptions, config: ConfigFile): Promise<FleetRuntime> {
  const { dataDir, env, log, fleetUpdateIntervalMs } = options;
  return FleetRuntime.load({
    dataDir,
    config,
    env,
    log,
    now: () => new Date(),
    ...(fleetUpdateIntervalMs === undefined ? {} : { minIntervalMs: fleetUpdateIntervalMs }),
  });
}

/** The tracker's watch, started: its finished tasks and questions go to the queue, a failed task shows in the fleet. */
async function startTracker(
  options: DaemonOptions,
  parts: {
    config: ConfigFile;
    trackerQuestions: TrackerQuestions;
    queue: ReportQueue;
    fleet: FleetRuntime;
    relayConnection: RelayConnection;
  },
): Promise<TrackerRuntime> {
  const { fleet } = parts;
  const tracker = await createTrackerRuntime({
    dataDir: options.dataDir,
    config: parts.config,
    env: options.env,
    log: options.log,
    outbox: parts.queue,
    questions: parts.trackerQuestions,
    onTaskFailed: (report) => {
      const change = failedTaskChange(report);
      if (change) fleet.record(change);
    },
  });
  parts.relayConnection.answerTrackerQuestionsWith(tracker.questionReplies);
  await tracker.start();
  return tracker;
}

/** Stops the daemon's parts, each after what still uses it: the ladders before the relay link, the files last. */
async function stopInOrder(parts: {
  permission: PermissionRuntime;
  finished: FinishedCalls;
  relayConnection: RelayConnection;
  tracker: TrackerRuntime;
  sessions: SessionsFile;
  trackerQuestions: TrackerQuestions;
  fleet: FleetRuntime;
}): Promise<void> {
  parts.permission.stop();
  await parts.finished.stopLadders();
  await parts.relayConnection.stop();
  await parts.tracker.stop();
  await parts.finished.stop();
  await parts.sessions.flush();
  await parts.trackerQuestions.flush();
  await parts.fleet.stop();
}
