import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type FakeModel, type FakeModelOptions, startFakeModel } from "@ringback/fake-model";
import type { PutLlmSettingsRequest } from "@ringback/protocol";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { type ChromiumHandle, launchChromium } from "./chromium.ts";
import { putLlmSettings } from "./daemon-local-api.ts";
import { type DaemonProcess, runRingback, startDaemon } from "./daemon-process.ts";
import { Device } from "./device.ts";
import { claudeStopPayload, runHook } from "./hook-process.ts";
import { type RelayOptions, type RelayProcess, startRelay } from "./relay-process.ts";
import type { CommandResult } from "./service-process.ts";

/** The key the harness gives the fake model's channel; the fake accepts any key unless told otherwise. */
const FAKE_MODEL_KEY = "sk-e2e-fake-model-0123456789";

export interface SystemOptions {
  /**
   * The language model the daemon writes briefs with (`PUT /llm/settings`): "fake" (the default) starts
   * @ringback/fake-model with `fakeModel` options (echo briefs, instant); a channel points at any other server
   * (its URL); null leaves the daemon without one (briefs fail and the app reads the report itself).
   */
  readonly model?: "fake" | PutLlmSettingsRequest | null;
  readonly fakeModel?: FakeModelOptions;
  /** DAEMON_TRACKER_API_URL: the tracker the daemon talks to, e.g. a fakes/multica server's address. */
  readonly trackerUrl?: string;
  /** More daemon environment, e.g. RINGBACK_CLAUDE_BIN for a fake agent CLI that replies resume. */
  readonly daemonEnv?: Record<string, string>;
  /** More relay arguments or environment, or another web root. */
  readonly relay?: Pick<RelayOptions, "args" | "env" | "webRoot">;
  /** This computer's name in the account's device list. */
  readonly computerName?: string;
}

/** A Claude Code turn (for Codex, build its payload and call `runHook("codex", ...)`). */
interface AgentTurn {
  /** Default: a new Claude Code session and prompt each time, so each turn is a new event. */
  readonly sessionId?: string;
  readonly promptId?: string;
  /** The payload's cwd; default the system's project directory. */
  readonly cwd?: string;
}

/**
 * The whole system on this machine, each part a real process as a user runs it: a relay serving the built web app
 * (open signup), a daemon logged in to it (`ringback login`, then `ringback run`), a language model configured
 * through `PUT /llm/settings`, the real hook for agent turns, and Chromium for devices. Dispose it (`await using`)
 * to stop everything in reverse order and delete its temp directory.
 */
export interface RingbackSystem extends AsyncDisposable {
  readonly directory: TemporaryDirectory;
  /** The daemon's RINGBACK_HOME. */
  readonly home: string;
  /** The agent's working directory (the reports' cwd). */
  readonly projectDir: string;
  readonly relay: RelayProcess;
  readonly daemon: DaemonProcess;
  /** The fake model when `model` is "fake", else null. */
  readonly model: FakeModel | null;
  /** A Claude Code turn ends: the real hook gets its Stop payload; resolves once the daemon took it with a 202. */
  agentFinishes(text: string, turn?: AgentTurn): Promise<CommandResult>;
  /** A new device (browser context) joined through a fresh `ringback pair` link. */
  addDevice(name: string): Promise<Device>;
  /**
   * Stops the daemon (SIGTERM, or SIGKILL for a crash) and starts it again on the same home and environment; `whileOff`
   * runs in between (what happens while the computer is off).
   */
  restartDaemon(signal?: NodeJS.Signals, whileOff?: () => Promise<void>): Promise<DaemonProcess>;
  /** Stops the relay and starts it again on the same port and data (devices and the daemon reconnect). */
  restartRelay(signal?: NodeJS.Signals): Promise<RelayProcess>;
}

export async function startSystem(options: SystemOptions = {}): Promise<RingbackSystem> {
  const cleanups = cleanupStack();
  try {
    const directory = await makeTemporaryDirectory();
    cleanups.push(() => directory.remove());
    const home = join(directory.path, "home");
    const projectDir = join(directory.path, "project");
    await mkdir(projectDir);
    const { model, channel } = await languageModel(options, cleanups);
    const relayOptions: RelayOptions = { dataDir: join(directory.path, "relay"), ...options.relay };
    let relay = await startRelay(relayOptions);
    cleanups.push(() => relay.stop());
    const daemonEnv = {
      ...(options.trackerUrl ? { DAEMON_TRACKER_API_URL: options.trackerUrl } : {}),
      ...options.daemonEnv,
    };
    await runRingback(home, [
      "login",
      "--server",
      relay.url,
      "--name",
      options.computerName ?? "e2e computer",
    ]);
    let daemon = await startDaemon({ home, env: daemonEnv });
    cleanups.push(() => daemon.stop());
    if (channel) await putLlmSettings(daemon, channel);
    return {
      directory,
      home,
      projectDir,
      get relay() {
        return relay;
      },
      get daemon() {
        return daemon;
      },
      model,
      agentFinishes: (text, turn = {}) => agentFinishes(home, projectDir, text, turn),
      addDevice: deviceJoiner(() => daemon, cleanups),
      async restartDaemon(signal = "SIGTERM", whileOff) {
        await daemon.stop(signal);
        await whileOff?.();
        daemon = await startDaemon({ home, env: daemonEnv });
        return daemon;
      },
      async restartRelay(signal = "SIGTERM") {
        await relay.stop(signal);
        relay = await startRelay({ ...relayOptions, port: relay.port });
        return relay;
      },
      [Symbol.asyncDispose]: cleanups.run,
    };
  } catch (error) {
    await cleanups.run().catch(() => undefined);
    throw error;
  }
}

/** What the system stops when disposed, in reverse order of starting; every step runs even when one fails. */
interface CleanupStack {
  push(cleanup: () => Promise<unknown>): void;
  run(): Promise<void>;
}

function cleanupStack(): CleanupStack {
  const cleanups: (() => Promise<unknown>)[] = [];
  return {
    push: (cleanup) => {
      cleanups.push(cleanup);
    },
    async run() {
      const errors: unknown[] = [];
      for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => errors.push(error));
      cleanups.length = 0;
      if (errors.length > 0) throw new AggregateError(errors, "the system did not stop cleanly");
    },
  };
}

/** The fake model started for the system (`model: "fake"`), or the channel it was given, or none. */
async function languageModel(
  options: SystemOptions,
  cleanups: CleanupStack,
): Promise<{ model: FakeModel | null; channel: PutLlmSettingsRequest | null }> {
  const requested = options.model ?? "fake";
  if (requested !== "fake") return { model: null, channel: requested };
  const fake = await startFakeModel(options.fakeModel);
  cleanups.push(() => fake.close());
  const channel = {
    baseUrl: fake.url,
    apiKey: options.fakeModel?.apiKey ?? FAKE_MODEL_KEY,
    model: options.fakeModel?.models?.[0] ?? "fake-model",
  };
  return { model: fake, channel };
}

async function agentFinishes(
  home: string,
  projectDir: string,
  text: string,
  turn: AgentTurn,
): Promise<CommandResult> {
  const cwd = turn.cwd ?? projectDir;
  const payload = claudeStopPayload(text, { cwd, sessionId: turn.sessionId, promptId: turn.promptId });
  const result = await runHook("claude-code", payload, { home, cwd });
  if (!/took the report \(202\)/.test(result.stderr))
    throw new Error(`the hook did not report:\n${result.stderr}`);
  return result;
}

/** Joins devices through `ringback pair` links in one Chromium, started with the first device. */
function deviceJoiner(
  daemon: () => DaemonProcess,
  cleanups: CleanupStack,
): (name: string) => Promise<Device> {
  let chromium: ChromiumHandle | null = null;
  const devices: Device[] = [];
  // Registered after the daemon and relay, so devices close before they stop.
  cleanups.push(async () => {
    for (const device of devices) await device[Symbol.asyncDispose]();
    await chromium?.[Symbol.asyncDispose]();
  });
  return async (name) => {
    chromium ??= await launchChromium();
    const pairing = await daemon().pair();
    const device = await Device.join(chromium.browser, name, pairing.link);
    devices.push(device);
    return device;
  };
}
