import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type GenerateBrief, Outbox, type SendFunction } from "@ringback/outbox";
import { type Brief, generatedBrief, type Report } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CONFIG_FILE, ConfigFile } from "../files/config-file.js";
import { CallRulesRuntime } from "./call-rules-runtime.js";

const START_MS = Date.UTC(2026, 11, 7, 9, 0, 0);
const QUESTION_ID = "evt_question";
let directory: TemporaryDirectory;
const stops: (() => Promise<void>)[] = [];

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: START_MS });
  directory = await makeTemporaryDirectory();
});

afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  vi.useRealTimers();
  await directory.remove();
});

function report(name: string, overrides: Partial<Report> = {}): Report {
  return {
    eventId: `evt_${name}`,
    source: "claude-code",
    occurredAt: new Date().toISOString(),
    text: `${name} finished.`,
    sessionId: `session-${name}`,
    cwd: `/home/ana/src/${name}`,
    ...overrides,
  };
}

function briefOf(item: Report): Brief {
  return generatedBrief(
    { title: item.eventId, spoken: item.text, cards: [] },
    { llmCalls: 1, model: "m", language: "en-US", generatedAt: new Date().toISOString() },
  );
}

/** A computer's rules and outbox as the daemon wires them; every post is recorded with its time and ring. */
async function startComputer(callRules?: object, options: { slowBriefs?: Set<string> } = {}) {
  if (callRules) await writeFile(join(directory.path, CONFIG_FILE), JSON.stringify({ callRules }));
  const config = await ConfigFile.load(directory.path, () => undefined);
  const lines: string[] = [];
  const rules = await CallRulesRuntime.load({
    dataDir: directory.path,
    config,
    env: {},
    log: (line) => lines.push(line),
    isQuestion: (eventId) => eventId === QUESTION_ID,
  });
  const posts: { eventId: string; atMs: number; ring: string }[] = [];
  const send: SendFunction = async (entry) => {
    posts.push({ eventId: entry.report.eventId, atMs: Date.now(), ring: rules.ringOf(entry.report) });
    return { kind: "sent" };
  };
  const finishBrief = new Map<string, () => void>();
  const generateBrief: GenerateBrief = async (item) => {
    if (options.slowBriefs?.has(item.eventId)) {
      await new Promise<void>((resolve) => finishBrief.set(item.eventId, resolve));
    }
    return briefOf(item);
  };
  const outbox = new Outbox({
    directory: directory.path,
    generateBrief,
    send: rules.sendingByRing({ quiet: send, ringing: send }),
    holdUntil: (item) => rules.holdUntil(item),
  });
  await outbox.start();
  rules.start(outbox.entries());
  const stop = async () => {
    await outbox.stop();
    await rules.stop();
  };
  stops.push(stop);
  return { rules, outbox, posts, lines, finishBrief, stop };
}

const sentAt = (posts: { eventId: string; atMs: number }[]) =>
  Object.fromEntries(posts.map((post) => [post.eventId, post.atMs - START_MS]));

describe("the gathering window (fake time)", () => {
  it("sends three finishes inside the 20 s window together at its end; a fourth after it waits its own window", async () => {
    const computer = await startComputer();
    await computer.outbox.enqueue(report("payments"));
    await vi.advanceTimersByTimeAsync(8_000);
    await computer.outbox.enqueue(report("docs"));
    await vi.advanceTimersByTimeAsync(11_000);
    await computer.outbox.enqueue(report("search"));
    await vi.advanceTimersByTimeAsync(999);
    expect(computer.posts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await eventually(() => computer.posts.length === 3);
    expect(sentAt(computer.posts)).toEqual({ evt_payments: 20_000, evt_docs: 20_000, evt_search: 20_000 });

    await vi.advanceTimersByTimeAsync(5_000);
    await computer.outbox.enqueue(report("billing"));
    await vi.advanceTimersByTimeAsync(20_000);
    await eventually(() => computer.posts.length === 4);
    expect(computer.posts[3]).toMatchObject({ eventId: "evt_billing", atMs: START_MS + 45_000 });
  });

  it("sends a call whose brief is still being written when the window ends as soon as its brief is ready", async () => {
    const computer = await startComputer(undefined, { slowBriefs: new Set(["evt_docs"]) });
    await computer.outbox.enqueue(report("payments"));
    await computer.outbox.enqueue(report("docs"));
    await vi.advanceTimersByTimeAsync(20_000);
    await eventually(() => computer.posts.length === 1);
    expect(computer.posts[0]?.eventId).toBe("evt_payments");
    await vi.advanceTimersByTimeAsync(7_000);
    computer.finishBrief.get("evt_docs")?.();
    await eventually(() => computer.posts.length === 2);
    expect(computer.posts[1]).toMatchObject({ eventId: "evt_docs", atMs: START_MS + 27_000 });
  });

  it("never holds a tracker agent's question (needs you), even inside a window", async () => {
    const computer = await startComputer();
    await computer.outbox.enqueue(report("payments"));
    await vi.advanceTimersByTimeAsync(3_000);
    await computer.outbox.enqueue(report("question", { eventId: QUESTION_ID, source: "tracker" }));
    await eventually(() => computer.posts.length === 1);
    expect(computer.posts[0]).toMatchObject({ eventId: QUESTION_ID, atMs: START_MS + 3_000, ring: "ring" });
  });

  it("with a window of 0 s sends every finish as soon as its brief is written, as before", async () => {
    const computer = await startComputer({ gatherSeconds: 0 });
    await computer.outbox.enqueue(report("payments"));
    await computer.outbox.enqueue(report("docs"));
    await eventually(() => computer.posts.length === 2);
    expect(sentAt(computer.posts)).toEqual({ evt_payments: 0, evt_docs: 0 });
    expect(computer.outbox.entries()).toEqual([]);
  });

  it("posts a silent or round-up project's call quiet at once, without opening a window, and keeps it for the summary", async () => {
    const computer = await startComputer({ projects: { docs: "silent", search: "round-up" } });
    await computer.outbox.enqueue(report("docs"));
    await computer.outbox.enqueue(report("search"));
    await eventually(() => computer.posts.length === 2);
    expect(computer.posts.map((post) => [post.eventId, post.ring, post.atMs - START_MS])).toEqual([
      ["evt_docs", "quiet", 0],
      ["evt_search", "quiet", 0],
    ]);
    await computer.outbox.enqueue(report("payments"));
    await vi.advanceTimersByTimeAsync(20_000);
    await eventually(() => computer.posts.length === 3);
    expect(computer.posts[2]).toMatchObject({
      eventId: "evt_payments",
      ring: "ring",
      atMs: START_MS + 20_000,
    });
    await computer.stop();
    const restarted = await startComputer();
    expect(computer.lines.join("\n")).toContain("held with the calls finishing until");
    expect(restarted.rules.rules().projects).toEqual({ docs: "silent", search: "round-up" });
  });

  it("loses nothing when the daemon restarts inside a window: the held calls go at its end, and a new finish joins it", async () => {
    const first = await startComputer();
    await first.outbox.enqueue(report("payments"));
    await vi.advanceTimersByTimeAsync(6_000);
    await first.outbox.enqueue(report("docs"));
    await eventually(() => first.outbox.entries().every((entry) => entry.state === "generated"));
    await first.stop();
    expect(first.posts).toEqual([]);

    await vi.advanceTimersByTimeAsync(4_000);
    const restarted = await startComputer();
    await restarted.outbox.enqueue(report("search"));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(restarted.posts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await eventually(() => restarted.posts.length === 3);
    expect(sentAt(restarted.posts)).toEqual({ evt_payments: 20_000, evt_docs: 20_000, evt_search: 20_000 });
  });
});
