import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NO_LANGUAGE_MODEL_ERROR } from "@ringback/protocol";
import { eventually, freePort, runToEnd, type ScriptedRelay } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_FILE } from "../src/runtime/files/config-file.js";
import {
  type DaemonProcess,
  daemonEnv,
  launchDaemon,
  openReportPost,
  postReport,
  readDaemonConfig,
  readLocalKey,
  readLocalStatus,
  runCli,
  startDaemonProcess,
} from "./helpers/daemon-process.js";
import { makeRelayedHome, type RelayedHome } from "./helpers/relayed-home.js";

const DEVICE_TOKEN = "device-token-for-tests-0123456789";
const report = {
  source: "claude-code",
  sessionId: "8f0c2a1e-session",
  turnId: "prompt-42",
  cwd: "/home/user/project",
  text: "Refactored the billing module; 214 tests pass. One question: should the old API stay for a month?",
};

let home: RelayedHome;
let relay: ScriptedRelay;

beforeEach(async () => {
  home = await makeRelayedHome();
  relay = home.relay;
});

afterEach(async () => {
  await home[Symbol.asyncDispose]();
});

async function startDaemon(config?: object): Promise<DaemonProcess> {
  if (config) await writeFile(join(home.path, CONFIG_FILE), JSON.stringify(config), { mode: 0o600 });
  return home.startDaemon();
}

async function openPost(index: number) {
  const post = relay.posts[index];
  if (!post) throw new Error(`no post ${index}`);
  return openReportPost(home.path, post);
}

const relayIdentity = { deviceToken: DEVICE_TOKEN, accountId: "acct_1", deviceId: "dev_1" };

describe("ringback run (a real daemon process)", () => {
  it("delivers a posted report to the relay sealed; it opens with the daemon's key to the original text", async () => {
    const daemon = await startDaemon({ relay: relayIdentity });
    const response = await postReport(daemon, await readLocalKey(home.path), report);
    expect(response.status).toBe(202);
    await eventually(() => relay.posts.length === 1, { on: relay.changes });

    const [post] = relay.posts;
    expect(post?.path).toBe("/v1/daemon/events");
    expect(post?.headers.authorization).toBe(`Bearer ${DEVICE_TOKEN}`);
    expect(post?.body).toMatchObject({
      source: "claude-code",
      eventId: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
    });
    expect(post?.body.sealed).not.toContain("billing");
    const payload = await openPost(0);
    expect(payload.report.text).toBe(report.text);
    expect(payload.report.eventId).toBe(post?.body.eventId);
    expect(payload.brief.meta).toMatchObject({
      status: "failed",
      llmCalls: 0,
      error: NO_LANGUAGE_MODEL_ERROR,
    });
  });

  it("retries 5xx answers and then delivers the same brief", async () => {
    relay.setScript((_post, attempt) =>
      attempt <= 2 ? { status: attempt === 1 ? 503 : 500 } : { status: 200 },
    );
    const daemon = await startDaemon();
    await postReport(daemon, await readLocalKey(home.path), report);
    await eventually(() => relay.delivered.size === 1, { on: relay.changes });
    expect(relay.posts).toHaveLength(3);
    const payloads = await Promise.all([0, 1, 2].map(openPost));
    expect(payloads[2]?.brief).toEqual(payloads[0]?.brief);
    expect(daemon.stderr()).toMatch(/send of evt_\w+ failed \(relay answered 503\); retry 1 in 1000 ms/);
  });

  it("retries after the relay drops the connection", async () => {
    relay.setScript((_post, attempt) => (attempt === 1 ? { dropConnection: true } : { status: 200 }));
    const daemon = await startDaemon();
    await postReport(daemon, await readLocalKey(home.path), report);
    await eventually(() => relay.delivered.size === 1, { on: relay.changes });
    expect(relay.posts).toHaveLength(2);
    expect(daemon.stderr()).toContain("network error");
  });

  it("drops a report the relay refuses with 400, logs why, and does not retry it", async () => {
    relay.setScript(() => ({
      status: 400,
      body: { error: { code: "invalid_request", message: "bad post" } },
    }));
    const daemon = await startDaemon();
    await postReport(daemon, await readLocalKey(home.path), report);
    await eventually(() => daemon.stderr().includes("dropped evt_"));
    expect(daemon.stderr()).toContain("relay answered 400 invalid_request: bad post");
    // Nothing left in the outbox: nothing can be sent again.
    const localKey = await readLocalKey(home.path);
    const { outbox } = await eventually(async () => {
      const status = await readLocalStatus(daemon, localKey);
      return status.outbox.lastReport?.state === "dropped" && status;
    });
    expect(outbox.waiting).toBe(0);
    expect(relay.posts).toHaveLength(1);
  });

  it("treats 409 duplicate_task as done and does not retry", async () => {
    relay.setScript(() => ({
      status: 409,
      body: { error: { code: "duplicate_task", message: "already reported" } },
    }));
    const daemon = await startDaemon();
    await postReport(daemon, await readLocalKey(home.path), report);
    await eventually(() => daemon.stderr().includes("duplicate_task"));
    // Finished as sent: nothing left in the outbox to send again.
    const localKey = await readLocalKey(home.path);
    const { outbox } = await eventually(async () => {
      const status = await readLocalStatus(daemon, localKey);
      return status.outbox.lastReport?.state === "sent" && status;
    });
    expect(outbox).toMatchObject({ waiting: 0, lastReport: { reason: "duplicate_task" } });
    expect(relay.posts).toHaveLength(1);
  });

  it("stops on SIGTERM with exit code 0 and sends what was left at the next start", async () => {
    relay.setScript(() => ({ status: 503 }));
    const first = await startDaemon();
    await postReport(first, await readLocalKey(home.path), report);
    await eventually(() => relay.posts.length === 1, { on: relay.changes });
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    relay.setScript(() => ({ status: 200 }));
    const second = await startDaemon();
    await eventually(() => relay.delivered.size === 1, { on: relay.changes });
    expect(second.stderr()).toContain("resuming 1 unfinished report");
  });

  it("gathers finished calls: three within the window reach the relay together after it, a fourth after it alone, a silent project's at once and quiet, and a restart inside a window loses nothing", async () => {
    const arrivedAt = new Map<string, number>();
    relay.setScript((post) => {
      arrivedAt.set(post.body.eventId, Date.now());
      return { status: 202 };
    });
    const config = {
      relay: relayIdentity,
      callRules: { gatherSeconds: 2, projects: { docs: "silent" }, quietSummaryAt: null },
    };
    let daemon = await startDaemon(config);
    const localKey = await readLocalKey(home.path);
    const finish = async (project: string, turn: string) => {
      const postedAt = Date.now();
      const response = await postReport(daemon, localKey, {
        ...report,
        turnId: turn,
        cwd: `/home/user/${project}`,
      });
      expect(response.status).toBe(202);
      return postedAt;
    };
    const heldUntil = () =>
      [...daemon.stderr().matchAll(/(evt_\w+): held with the calls finishing until (\S+)/g)].map((match) => ({
        eventId: match[1],
        until: Date.parse(match[2] ?? ""),
      }));
    const projectOfPost = async (index: number) => (await openPost(index)).report.cwd;

    const windowOpenedAt = await finish("payments", "turn-1");
    await finish("search", "turn-2");
    await finish("billing", "turn-3");
    await finish("docs", "turn-4");
    // The silent project's call goes at once, quiet; the other three wait for the window's end.
    await eventually(() => relay.posts.length === 1, { on: relay.changes });
    expect(relay.posts[0]?.body.ring).toBe("quiet");
    expect(await projectOfPost(0)).toBe("/home/user/docs");
    await eventually(() => relay.posts.length === 4, { on: relay.changes });
    const gathered = relay.posts.slice(1);
    expect(gathered.map((post) => post.body.ring)).toEqual([undefined, undefined, undefined]);
    expect(new Set(heldUntil().map((hold) => hold.until)).size).toBe(1);
    for (const post of gathered) {
      expect(arrivedAt.get(post.body.eventId)).toBeGreaterThanOrEqual(windowOpenedAt + 2000);
    }

    const fourthAt = await finish("payments", "turn-5");
    await eventually(() => relay.posts.length === 5, { on: relay.changes });
    const fourth = relay.posts[4]?.body.eventId ?? "";
    expect(arrivedAt.get(fourth)).toBeGreaterThanOrEqual(fourthAt + 2000);
    expect(new Set(heldUntil().map((hold) => hold.until)).size).toBe(2);

    // A restart inside a window: the held call is kept, and goes at the window's end, not at the start.
    const heldAt = await finish("search", "turn-6");
    await eventually(() => heldUntil().length === 5);
    expect(await daemon.stop()).toEqual({ code: 0, signal: null });
    expect(relay.posts).toHaveLength(5);
    daemon = await startDaemon();
    await eventually(() => relay.posts.length === 6, { on: relay.changes });
    expect(daemon.stderr()).toContain("resuming 1 unfinished report");
    expect(arrivedAt.get(relay.posts[5]?.body.eventId ?? "")).toBeGreaterThanOrEqual(heldAt + 2000);
    expect(await projectOfPost(5)).toBe("/home/user/search");
  });

  it("keeps its files private: data dir 700, every file 600", async () => {
    const daemon = await startDaemon();
    const localKey = await readLocalKey(home.path);
    await postReport(daemon, localKey, report);
    await eventually(() => relay.delivered.size === 1, { on: relay.changes });
    await daemon.stop();
    const dataDir = join(home.path, "data");
    await using fresh = await startDaemonProcess(dataDir);
    await postReport(fresh, await readLocalKey(dataDir), report);
    await fresh.stop();
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    for (const file of ["daemon.json", "local-api.key", "outbox.json", "outbox.journal", "sessions.json"]) {
      expect([file, (await stat(join(dataDir, file))).mode & 0o777]).toEqual([file, 0o600]);
    }
  });

  it("never writes a key, token or passphrase to its output", async () => {
    const apiKey = "sk-model-secret-0123456789abcdef";
    const passphrase = "a passphrase nobody should log";
    const daemon = await startDaemon({ relay: relayIdentity });
    const localKey = await readLocalKey(home.path);
    const generatedKey = (await readDaemonConfig(home.path)).e2e?.key;
    const call = (path: string, method: string, body?: unknown) =>
      fetch(`${daemon.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    await call("/llm/settings", "PUT", { baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKey });
    await call("/e2e/key", "PUT", { passphrase });
    await call("/e2e/key", "GET");
    await postReport(daemon, localKey, report);
    await postReport(daemon, "wrong-key", report);
    await eventually(() => relay.delivered.size === 1, { on: relay.changes });
    await daemon.stop();
    const output = `${daemon.stdout()}\n${daemon.stderr()}`;
    const derivedKey = (await readDaemonConfig(home.path)).e2e?.key;
    for (const secret of [apiKey, passphrase, localKey, generatedKey, derivedKey, DEVICE_TOKEN]) {
      expect(output).not.toContain(secret);
    }
  });

  it.each([
    ["invalid JSON", '{"localPort": 8790,', /daemon\.json is not valid JSON/],
    ["a bad field", '{"localPort": "eighty"}', /daemon\.json: localPort: /],
    ["a bad nested field", '{"e2e": {"key": "not-a-key"}}', /daemon\.json: e2e\.key: /],
    ["a bad language", '{"brief": {"language": "english"}}', /daemon\.json: brief\.language: /],
  ])(
    "refuses to start with %s in daemon.json, naming the file and field, exit code 1",
    async (_label, text, message) => {
      const path = join(home.path, CONFIG_FILE);
      await writeFile(path, text, { mode: 0o600 });
      const result = await runCli(["run", "--port", "0"], daemonEnv(home.path));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain(path);
      expect(result.stdout).not.toContain("listening");
      expect(await readFile(path, "utf8")).toBe(text);
    },
  );

  it("refuses to start with a damaged outbox.json, naming it, and leaves it as it is", async () => {
    const path = join(home.path, "outbox.json");
    await writeFile(path, '{"version":1,"generation":', { mode: 0o600 });
    const result = await runCli(["run", "--port", "0"], daemonEnv(home.path));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`ringback: ${path} is not valid JSON`);
    expect(await readFile(path, "utf8")).toBe('{"version":1,"generation":');
  });

  it("refuses a second daemon on the same data dir, even on another port, saying one is already running", async () => {
    const first = await startDaemon();
    expect((await stat(join(home.path, "outbox.lock"))).mode & 0o777).toBe(0o600);
    const second = await runCli(["run", "--port", "0"], daemonEnv(home.path));
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`ringback: a ringback daemon is already running for ${home.path}`);
    expect(second.stderr).toContain(`in use by another process (pid ${first.pid})`);
    expect((await postReport(first, await readLocalKey(home.path), report)).status).toBe(202);
    await eventually(() => relay.delivered.size === 1, { on: relay.changes });
  });

  it("saves a port it was moved to (RINGBACK_PORT) in daemon.json, where pnpm ring's hook finds it", async () => {
    const port = await freePort();
    const launched = launchDaemon(
      home.path,
      { RINGBACK_SERVER_URL: relay.url, RINGBACK_PORT: String(port) },
      ["run"],
    );
    await using daemon = await launched.listening;
    expect(daemon.port).toBe(port);
    expect((await readDaemonConfig(home.path)).localPort).toBe(port);
    expect(daemon.stderr()).toContain(`localPort ${port} saved in daemon.json (was 8790)`);

    const ring = await runToEnd({
      args: [
        fileURLToPath(new URL("../../../scripts/ring.mjs", import.meta.url)),
        "Moved and still ringing.",
      ],
      env: { PATH: process.env.PATH, HOME: home.path, RINGBACK_HOME: home.path },
    });

    expect(ring.stderr).toMatch(/^ringback-hook: sent: /m);
    expect(ring.code).toBe(0);
    await eventually(() => relay.delivered.size === 1, { on: relay.changes });
  });

  it("refuses an unknown command or option with exit code 1", async () => {
    expect((await runCli(["fly"], daemonEnv(home.path))).code).toBe(1);
    const badOption = await runCli(["run", "--colour"], daemonEnv(home.path));
    expect(badOption.code).toBe(1);
    expect(badOption.stderr).toContain("--colour");
  });

  it("refuses a system port or a port that is no number with the reason, before anything starts", async () => {
    for (const [args, env, reason] of [
      [["run", "--port", "1"], {}, "ringback: --port 1 is one of the system's ports"],
      [["run", "--port", "70000"], {}, "ringback: --port must be a port number from 1024 to 65535"],
      [["run"], { RINGBACK_PORT: "eighty" }, "RINGBACK_PORT must be a port number from 1024 to 65535"],
    ] as const) {
      const result = await runCli([...args], daemonEnv(home.path, env));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(reason);
      expect(result.stdout).not.toContain("listening");
    }
    // Nothing started: the data dir holds no file the daemon writes at its start.
    await expect(stat(join(home.path, "outbox.lock"))).rejects.toThrow();
    await expect(stat(join(home.path, CONFIG_FILE))).rejects.toThrow();
  });
});
