import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { answers, briefDraft, type FakeModel, startFakeModel } from "@ringback/fake-model";
import { eventually, type ScriptedRelay } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type DaemonProcess,
  daemonEnv,
  openReportPost,
  postReport,
  readLocalKey,
  runCli,
} from "./helpers/daemon-process.js";
import { makeRelayedHome, type RelayedHome } from "./helpers/relayed-home.js";

const MODEL_KEY = "sk-test-model-key-0123456789";

let home: RelayedHome;
let relay: ScriptedRelay;
let model: FakeModel;

beforeEach(async () => {
  home = await makeRelayedHome();
  relay = home.relay;
  model = await startFakeModel();
});

afterEach(async () => {
  await home[Symbol.asyncDispose]();
  await model.close();
});

async function startWithModel(
  limits: { timeoutMs?: number } = {},
): Promise<{ daemon: DaemonProcess; localKey: string }> {
  await home.link();
  const daemon = await home.startDaemon();
  const localKey = await readLocalKey(home.path);
  const saved = await fetch(`${daemon.url}/llm/settings`, {
    method: "PUT",
    headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
    body: JSON.stringify({ baseUrl: model.url, apiKey: MODEL_KEY, model: "fake-model", ...limits }),
  });
  expect(saved.status).toBe(200);
  return { daemon, localKey };
}

function report(index: number) {
  return {
    source: "codex",
    sessionId: `thread-${index}`,
    turnId: `turn-${index}`,
    cwd: "/home/user/project",
    text: `Turn ${index}: the migration ran; 12 tables were converted and 3 need a manual check.`,
  };
}

describe("briefs written by a language model configured through PUT /llm/settings", () => {
  it("sends a generated brief, sealed, and never sends the model key to the relay", async () => {
    const { daemon, localKey } = await startWithModel();
    expect((await postReport(daemon, localKey, report(1))).status).toBe(202);
    await eventually(() => relay.posts.length === 1, { on: relay.changes });

    const payload = await openReportPost(home.path, relay.posts[0]!);
    expect(payload.brief.meta).toMatchObject({
      status: "generated",
      llmCalls: 1,
      model: "fake-model",
      error: null,
    });
    expect(payload.brief.spoken.length).toBeGreaterThan(0);
    expect(JSON.stringify(relay.posts)).not.toContain(MODEL_KEY);
    expect(daemon.stderr()).not.toContain(MODEL_KEY);
    expect(model.chatRequests()[0]?.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
  });

  it("finishes a brief when the model sends its response head only with its first token, seconds later", async () => {
    // Ollama's OpenAI endpoint writes its head with the first chunk: nothing comes while the prompt is read.
    const HEAD_AFTER_MS = 3_000;
    const { daemon, localKey } = await startWithModel();
    model.script(answers.delay(HEAD_AFTER_MS, answers.streamed()));
    expect((await postReport(daemon, localKey, report(1))).status).toBe(202);
    await eventually(() => relay.posts.length === 1, { checks: 1_000, on: relay.changes });

    const payload = await openReportPost(home.path, relay.posts[0]!);
    expect(payload.brief.meta).toMatchObject({ status: "generated", llmCalls: 1, error: null });
    expect(model.pendingAnswers()).toBe(0);
    // The call went through the daemon's own fetch (node:http, no compression asked), not Node's global one.
    expect(model.chatRequests()[0]?.headers["accept-encoding"]).toBe("identity");
  });

  it("runs one generation at a time against a local model, each clock starting when its call is sent", async () => {
    const MODEL_DELAY_MS = 400;
    // Each call takes longer than the overall cap would allow for one that waited behind the others.
    const { daemon, localKey } = await startWithModel({ timeoutMs: 1_000 });
    model.setDefaultAnswer(answers.delay(MODEL_DELAY_MS));
    // When each model call started, seen by polling; every call takes at least MODEL_DELAY_MS.
    const startedAt: number[] = [];
    const probe = setInterval(() => {
      while (startedAt.length < model.chatRequests().length) startedAt.push(performance.now());
    }, 5);
    try {
      for (let index = 0; index < 5; index += 1) {
        expect((await postReport(daemon, localKey, report(index))).status).toBe(202);
      }
      await eventually(() => relay.posts.length === 5, { checks: 1_000, on: relay.changes });
    } finally {
      clearInterval(probe);
    }
    expect(startedAt).toHaveLength(5);
    // A call starts only once the one before it has finished (the local server works on one at a time)...
    for (let index = 1; index < startedAt.length; index += 1) {
      expect(startedAt[index]! - startedAt[index - 1]!).toBeGreaterThanOrEqual(MODEL_DELAY_MS - 20);
    }
    // ...and none failed for time, though the last waited far longer than the 1 s cap in the daemon's queue.
    expect(startedAt[4]! - startedAt[0]!).toBeGreaterThan(1_000);
    const briefs = await Promise.all(relay.posts.map((post) => openReportPost(home.path, post)));
    expect(briefs.map((payload) => payload.brief.meta.status)).toEqual(Array(5).fill("generated"));
  });
});

describe("ringback brief-eval", () => {
  /** A computer with the fake model configured and a report file to evaluate; the file's path. */
  async function greenBuildReportWithModel(): Promise<string> {
    await writeFile(
      join(home.path, "daemon.json"),
      JSON.stringify({ llm: { primary: { baseUrl: model.url, apiKey: MODEL_KEY, model: "fake-model" } } }),
      { mode: 0o600 },
    );
    const file = join(home.path, "report.txt");
    await writeFile(file, "The build is green. All 42 tests pass.");
    return file;
  }

  it("prints coverage and exits 0 for a good brief, without sending anything", async () => {
    const file = await greenBuildReportWithModel();
    model.script(answers.json(briefDraft({ spoken: "Green build: all 42 tests pass." })));
    const result = await runCli(["brief-eval", file], daemonEnv(home.path));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("report.txt");
    expect(relay.posts).toHaveLength(0);
    expect(model.chatRequests()[0]?.headers["accept-encoding"]).toBe("identity");
  });

  it("exits 1 when a critical fact stays uncovered", async () => {
    const file = await greenBuildReportWithModel();
    const uncovered = briefDraft({
      spoken: "The build is green.",
      criticalFacts: [{ fact: "All 42 tests pass.", covered: false }],
    });
    model.script(answers.json(uncovered), answers.json(uncovered));
    const result = await runCli(["brief-eval", file], daemonEnv(home.path));
    expect(result.code).toBe(1);
    expect(model.chatRequests()).toHaveLength(2);
  });

  it("says so when no language model is configured", async () => {
    const file = join(home.path, "report.txt");
    await writeFile(file, "Done.");
    const result = await runCli(["brief-eval", file], daemonEnv(home.path));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("no language model is configured on this computer");
  });
});
