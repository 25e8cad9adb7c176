import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { createApp } from "../src/app.js";
import { prepareDaemon } from "../src/daemon.js";
import { CONFIG_FILE } from "../src/runtime/files/config-file.js";
import { createTrackerRuntime } from "../src/runtime/tracker/tracker-runtime.js";

const TEST_PORT = 8790;
/** The longest a test's sleep really waits: reconnect loops stay cheap, read retries stay instant. */
const SLEEP_CAP_MS = 20;

export interface HarnessRequest {
  method?: string;
  /** Sent as JSON unless it is a string or a stream. */
  body?: unknown;
  headers?: Record<string, string | undefined>;
}

/**
 * A tracker simulator seeded with one user (its token), a workspace "Ringback" (prefix RING) with an online
 * runtime, an agent "Claude" on it, an offline agent "Codex", and a project "Website"; and an in-process
 * daemon (its app through `app.request()`, its outbox and watchers real) pointed at the simulator. Sleeps
 * between tracker read retries are recorded in `sleeps` and cut short; `advanceClock` moves the daemon's
 * clock forward. With `sharedWith`, a second daemon (its own data dir) on the same simulator and seed.
 */
export async function startTrackerHarness(
  options: {
    env?: Record<string, string>;
    sharedWith?: TrackerSeed;
    /** Written as daemon.json before the start; with a relay identity in it, the daemon's link is opened. */
    config?: object;
    /** Starts on this data directory (a restart): kept when the harness closes. */
    dataDir?: string;
    /** How long a move to blocked waits for the agent's explanation; 0 (rings at once) unless given. */
    explanationWaitMs?: number;
  } = {},
) {
  const seed = options.sharedWith ?? seedTracker(await startFakeMultica());
  const { fake, state, user, workspace, agent, offlineAgent, project } = seed;

  const directory = options.dataDir
    ? { path: options.dataDir, remove: async () => undefined }
    : await makeTemporaryDirectory("ringback-tracker-");
  if (options.config) {
    await writeFile(join(directory.path, CONFIG_FILE), JSON.stringify(options.config), { mode: 0o600 });
  }
  const logLines: string[] = [];
  const log = (line: string) => logLines.push(line);
  const env = {
    LANG: "en_US.UTF-8",
    DAEMON_TRACKER_API_URL: fake.url,
    RINGBACK_GATHER_SECONDS: "0",
    ...options.env,
  };
  const prepared = await prepareDaemon({ dataDir: directory.path, env, log, port: TEST_PORT });
  let clockOffsetMs = 0;
  const sleeps: number[] = [];
  // The daemon's own tracker runtime, rebuilt with a recording sleep and a clock the test moves.
  await prepared.context.tracker.stop();
  const tracker = await createTrackerRuntime({
    dataDir: directory.path,
    config: prepared.context.config,
    env,
    log,
    outbox: prepared.outbox,
    questions: prepared.trackerQuestions,
    explanationWaitMs: options.explanationWaitMs ?? 0,
    now: () => new Date(Date.now() + clockOffsetMs),
    sleep: (ms, signal) => {
      sleeps.push(ms);
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(ms, SLEEP_CAP_MS));
        signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  });
  prepared.context.relay.answerTrackerQuestionsWith(tracker.questionReplies);
  await tracker.start();
  const app = createApp({ ...prepared.context, tracker, outbox: tracker.hookTurns.observe(prepared.outbox) });
  const localKey = prepared.context.localKey;
  // Replies come over the daemon's link to the relay, as in a running daemon.
  if (options.config) prepared.context.relay.start({ app, localKey, port: () => TEST_PORT });

  async function request(path: string, init: HarnessRequest = {}): Promise<Response> {
    const isRaw = typeof init.body === "string" || init.body instanceof ReadableStream;
    const body = init.body === undefined ? undefined : isRaw ? init.body : JSON.stringify(init.body);
    const headers = Object.entries({
      host: `127.0.0.1:${TEST_PORT}`,
      authorization: `Bearer ${localKey}`,
      "content-type": body === undefined ? undefined : "application/json",
      ...init.headers,
    }).filter((header): header is [string, string] => header[1] !== undefined);
    return app.request(`http://127.0.0.1:${TEST_PORT}${path}`, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body: body as ReadableStream | string | undefined,
      ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit);
  }

  /** Answers with the JSON body, failing the test on an unexpected status. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and check them with expect.
  async function call<T = any>(path: string, init: HarnessRequest = {}, status = 200): Promise<T> {
    const response = await request(path, init);
    const text = await response.text();
    if (response.status !== status)
      throw new Error(`${path}: expected ${status}, got ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  return {
    fake,
    state,
    user,
    workspace,
    agent,
    offlineAgent,
    project,
    dataDir: directory.path,
    config: prepared.context.config,
    outbox: prepared.outbox,
    tracker,
    logLines,
    sleeps,
    request,
    call,
    /** Saves the user's token and the workspace, as the settings screen does. */
    configure(workspaceIds: string[] = [workspace.id]) {
      return call("/tracker/settings", { method: "PUT", body: { token: user.token, workspaceIds } });
    },
    /** Waits for the watcher's first catch-up: until then it may read agents' task lists at any moment. */
    watcherCaughtUp() {
      return eventually(() => logLines.some((line) => line.includes("caught up on tasks finished")));
    },
    advanceClock(ms: number) {
      clockOffsetMs += ms;
    },
    /** Stops this daemon (and the simulator, unless shared); the data directory stays when `keepData`. */
    async close(closeOptions: { keepData?: boolean } = {}) {
      await tracker.stop();
      await prepared.stop();
      if (!options.sharedWith) await fake.close();
      if (!closeOptions.keepData) await directory.remove();
    },
  };
}

export type TrackerHarness = Awaited<ReturnType<typeof startTrackerHarness>>;

export type TrackerSeed = ReturnType<typeof seedTracker>;

function seedTracker(fake: FakeMultica) {
  const state = fake.state;
  const user = state.addUser({ name: "Ada" });
  const workspace = state.addWorkspace({ name: "Ringback", slug: "ringback", members: [user.id] });
  const runtime = state.addRuntime(workspace.id, { status: "online" });
  const agent = state.addAgent(workspace.id, { name: "Claude", runtime_id: runtime.id });
  const offlineRuntime = state.addRuntime(workspace.id, { status: "offline", name: "desktop" });
  const offlineAgent = state.addAgent(workspace.id, { name: "Codex", runtime_id: offlineRuntime.id });
  const project = state.addProject(workspace.id, { title: "Website", status: "in_progress" });
  return { fake, state, user, workspace, agent, offlineAgent, project };
}

/** The smallest valid PNG header plus some bytes: enough for the signature check. */
export function pngBytes(extra = 64): Buffer {
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.alloc(extra, 7),
  ]);
}
