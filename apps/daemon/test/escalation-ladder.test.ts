import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { PermissionRequestPost } from "@ringback/protocol";
import {
  type ChannelAccounts,
  listenOnLoopback,
  makeTemporaryDirectory,
  startFakeEscalationChannels,
} from "@ringback/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EscalationRuntime } from "../src/runtime/escalation/escalation-runtime.js";
import { FinishedCallLadders } from "../src/runtime/escalation/finished-call-ladders.js";
import { ConfigFile } from "../src/runtime/files/config-file.js";
import { askPermission } from "../src/runtime/needs-you/ask-permission.js";
import { PendingAsks } from "../src/runtime/needs-you/pending-asks.js";
import { awayNow } from "../src/runtime/presence/away-now.js";
import { savePresence } from "../src/runtime/presence/presence-file.js";

/**
 * The ladder of a "needs you" call as the daemon runs it: a real ask held for the phone, a relay stand-in that takes
 * the call and the push again, the four channels' stand-ins, and fake time for the schedule.
 */
const ACCOUNTS: ChannelAccounts = {
  ntfyToken: "tk_ladderntfy",
  pushover: { appToken: "ladderapptoken00000000000000000", userKey: "ladderuserkey0000000000000000" },
  telegram: { botToken: "7:ladderbot", chatId: "42" },
  twilio: { accountSid: `AC${"c".repeat(32)}`, authToken: "laddertwilio" },
};
/** Text of the ask that must never reach a channel: the command, the path, the agent's words, the brief's. */
const CANARIES = ["CANARY-COMMAND-7f3a", "canary-project-5d1e", "CANARY-WORDS-9b2c", "website", "rm -rf"];

function canaryAsk() {
  return PermissionRequestPost.parse({
    agent: "claude-code",
    sessionId: "session-ladder",
    cwd: "/home/ada/canary-project-5d1e/website",
    toolName: "Bash",
    toolInput: { command: "rm -rf dist && echo CANARY-COMMAND-7f3a", description: "CANARY-COMMAND-7f3a" },
    lastWords: "CANARY-WORDS-9b2c is what I need to run.",
    shortened: [],
  });
}

/** The relay's routes the ladder uses: the call's post, the push again, and the call's status. */
async function relayStandIn() {
  const pushes: { eventId: string; at: number }[] = [];
  const posts: string[] = [];
  let callStatus = "pending";
  let callRing = "ring";
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const url = request.url ?? "";
      const pushAgain = /^\/v1\/daemon\/events\/([^/]+)\/push$/.exec(url);
      const call = /^\/v1\/calls\/([^/]+)$/.exec(url);
      response.setHeader("content-type", "application/json");
      if (request.method === "POST" && url === "/v1/daemon/events") {
        posts.push(url);
        response.writeHead(201).end(JSON.stringify({ eventId: "x", seq: 1 }));
      } else if (request.method === "POST" && pushAgain?.[1]) {
        pushes.push({ eventId: pushAgain[1], at: Date.now() });
        response.writeHead(200).end(JSON.stringify({ eventId: pushAgain[1], devices: 2 }));
      } else if (request.method === "GET" && call?.[1]) {
        response.writeHead(200).end(JSON.stringify({ eventId: call[1], status: callStatus, ring: callRing }));
      } else {
        response.writeHead(404).end(JSON.stringify({ error: { code: "not_found", message: "Not found." } }));
      }
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    pushes,
    posts,
    answerOnPhone: () => (callStatus = "answered"),
    endOnPhone: () => (callStatus = "ended"),
    makeQuiet: () => (callRing = "quiet"),
  };
}

async function ladderHome(
  directory: string,
  relayOrigin: string,
  channelsOrigin: string,
  finished: { afterSeconds: number | null; stepSeconds: number } = { afterSeconds: null, stepSeconds: 30 },
) {
  await writeFile(
    join(directory, "daemon.json"),
    JSON.stringify({
      serverUrl: relayOrigin,
      relay: { deviceToken: "computer-token", accountId: "acc", deviceId: "computer" },
      escalation: {
        channels: [
          { kind: "ntfy", serverUrl: channelsOrigin, topic: "rb", token: ACCOUNTS.ntfyToken },
          { kind: "pushover", ...ACCOUNTS.pushover },
          { kind: "telegram", ...ACCOUNTS.telegram },
          { kind: "twilio", ...ACCOUNTS.twilio, from: "+15005550006", to: "+15551234567" },
        ],
        schedule: { needsYou: { afterSeconds: 60, stepSeconds: 30 }, finished },
      },
    }),
  );
  const log: string[] = [];
  const config = await ConfigFile.load(directory, () => undefined);
  await savePresence(directory, { away: true, changedBy: "a test" }, new Date());
  const pendingAsks = new PendingAsks();
  const escalation = new EscalationRuntime({
    config,
    env: {},
    endpoints: { pushover: channelsOrigin, telegram: channelsOrigin, twilio: channelsOrigin },
    log: (line) => log.push(line),
  });
  const context = {
    dataDir: directory,
    config,
    env: {},
    pendingAsks,
    systemLanguage: "en-US",
    log: (line: string) => log.push(line),
    now: () => new Date(),
    graceMs: 0,
    escalation,
  };
  return { context, pendingAsks, log, escalation };
}

/** Lets loopback sockets answer: real turns of the event loop (setImmediate is not faked), no clock time. */
async function letSocketsAnswer(): Promise<void> {
  for (let turn = 0; turn < 40; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits, on the real clock (performance is not faked), for loopback sockets to bring `done` about. */
async function untilSocketsAnswer(done: () => boolean): Promise<void> {
  const limit = performance.now() + 5000;
  while (!done() && performance.now() < limit) await letSocketsAnswer();
  expect(done()).toBe(true);
}

/** Moves fake time on in 100 ms steps until `done`, letting sockets answer between steps. */
async function advanceUntil(done: () => boolean, limitMs: number): Promise<void> {
  for (let elapsed = 0; elapsed < limitMs && !done(); elapsed += 100) {
    await vi.advanceTimersByTimeAsync(100);
    await letSocketsAnswer();
  }
}

describe("the escalation ladder of a needs-you call", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("climbs push, ntfy, Pushover, Telegram, Twilio on the schedule; the phone's decision stops it all at once", async () => {
    await using directory = await makeTemporaryDirectory();
    await using relay = await relayStandIn();
    await using channels = await startFakeEscalationChannels(ACCOUNTS);
    const { context, pendingAsks, log } = await ladderHome(directory.path, relay.origin, channels.origin);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const startedAt = Date.now();
    const answer = askPermission(canaryAsk(), context, new AbortController().signal);

    await untilSocketsAnswer(() => relay.posts.length === 1);
    // No rung a millisecond before its time; at its time it is sent with no more fake time passing.
    const schedule = [
      ["push", 60],
      ["ntfy", 90],
      ["pushover", 120],
      ["telegram", 150],
      ["twilio", 180],
    ] as const;
    for (const [rung, dueSeconds] of schedule) {
      const sent = () =>
        rung === "push"
          ? relay.pushes.length
          : channels.requests.filter((request) => request.service === rung && request.method === "POST")
              .length;
      await vi.advanceTimersByTimeAsync(startedAt + dueSeconds * 1000 - 1 - Date.now());
      expect(sent(), `${rung} before ${dueSeconds} s`).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      await untilSocketsAnswer(() => sent() === 1);
    }
    await advanceUntil(
      () => channels.requests.filter((request) => request.method === "GET").length >= 3,
      30_000,
    );
    // The receipt is read while the ladder runs (its 5 s spacing is ladder-runner.test.ts's, on exact fake time).
    expect(channels.requests.filter((request) => request.method === "GET").length).toBeGreaterThanOrEqual(3);

    const eventId = relay.pushes[0]?.eventId ?? "";
    pendingAsks.decide(eventId, { outcome: "decided", verdict: "allow", reason: null, decidedOn: "a phone" });
    expect(await answer).toMatchObject({ outcome: "decided", verdict: "allow" });
    const requestsAtDecision = channels.requests.length;
    await advanceUntil(
      () => channels.calls[0]?.status === "canceled" && channels.receipts[0]?.cancelled === true,
      5000,
    );
    expect(channels.receipts[0]?.cancelled).toBe(true);
    expect(channels.calls[0]?.status).toBe("canceled");
    await vi.advanceTimersByTimeAsync(120_000);
    // After the decision: only the two withdrawals, no rung and no receipt read.
    expect(channels.requests.slice(requestsAtDecision).map((request) => request.url)).toEqual(
      expect.arrayContaining([expect.stringContaining("/cancel.json"), expect.stringContaining("/Calls/CA")]),
    );
    expect(channels.requests.length - requestsAtDecision).toBe(2);

    for (const request of channels.requests) {
      const sent = `${request.url}\n${JSON.stringify(request.headers)}\n${decodeURIComponent(request.body.replaceAll("+", " "))}`;
      for (const canary of CANARIES) expect(sent, `${request.service} ${request.url}`).not.toContain(canary);
    }
    for (const line of log)
      expect(line).not.toMatch(/ladderapptoken|ladderuserkey|ladderbot|laddertwilio|ladderntfy/);
  });

  it("stops before the next rung once the call was answered on a phone, before any decision", async () => {
    await using directory = await makeTemporaryDirectory();
    await using relay = await relayStandIn();
    await using channels = await startFakeEscalationChannels(ACCOUNTS);
    const { context, pendingAsks } = await ladderHome(directory.path, relay.origin, channels.origin);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const hook = new AbortController();
    const answer = askPermission(canaryAsk(), context, hook.signal);
    await advanceUntil(() => relay.pushes.length === 1, 100_000);
    relay.answerOnPhone();
    await vi.advanceTimersByTimeAsync(200_000);
    expect(channels.requests).toHaveLength(0);
    hook.abort();
    expect(await answer).toEqual({ outcome: "expired" });
    expect(pendingAsks.get(relay.pushes[0]?.eventId ?? "")).toBeUndefined();
  });
});

describe("the escalation ladder of a finished call", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The daemon's wiring: the outbox's sender, a ladder after each post, away read from presence.json. */
  async function finishedHome(finished: { afterSeconds: number | null; stepSeconds: number }) {
    const directory = await makeTemporaryDirectory();
    const relay = await relayStandIn();
    const channels = await startFakeEscalationChannels(ACCOUNTS);
    const home = await ladderHome(directory.path, relay.origin, channels.origin, finished);
    let presenceReads = 0;
    const ladders = new FinishedCallLadders({
      escalation: home.escalation,
      isAway: async () => {
        presenceReads += 1;
        return (await awayNow(directory.path, new Date(), {})).isAway;
      },
      isCallRinging: (eventId, signal) => home.escalation.isCallRinging(eventId, signal),
      log: home.context.log,
      now: () => new Date(),
    });
    const send = ladders.escalatingAfter(async () => ({ kind: "sent" }));
    const post = (eventId: string) =>
      send({ report: { eventId } } as Parameters<typeof send>[0], new AbortController().signal);
    const posted = (service: string) =>
      channels.requests.filter((request) => request.service === service && request.method === "POST").length;
    return {
      directory,
      relay,
      channels,
      ladders,
      post,
      posted,
      log: home.log,
      presenceReads: () => presenceReads,
      async [Symbol.asyncDispose]() {
        await ladders.stopAll();
        await channels[Symbol.asyncDispose]();
        await relay[Symbol.asyncDispose]();
        await directory[Symbol.asyncDispose]();
      },
    };
  }

  it("climbs on the finished schedule while the person is away, and stops once the call ends on a phone", async () => {
    await using home = await finishedHome({ afterSeconds: 20, stepSeconds: 10 });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const startedAt = Date.now();
    expect(await home.post("ev-finished-1")).toEqual({ kind: "sent" });
    await untilSocketsAnswer(() => home.log.some((line) => line.includes("the finished call escalates")));
    const schedule = [
      ["push", 20],
      ["ntfy", 30],
      ["pushover", 40],
      ["telegram", 50],
      ["twilio", 60],
    ] as const;
    for (const [rung, dueSeconds] of schedule) {
      const sent = () => (rung === "push" ? home.relay.pushes.length : home.posted(rung));
      await vi.advanceTimersByTimeAsync(startedAt + dueSeconds * 1000 - 1 - Date.now());
      await letSocketsAnswer();
      expect(sent(), `${rung} before ${dueSeconds} s`).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      await untilSocketsAnswer(() => sent() === 1);
    }
    expect(home.relay.pushes[0]?.eventId).toBe("ev-finished-1");

    // Ended on a phone after the last rung: no hook waits, so the daemon's watch of the call is what stops it.
    home.relay.endOnPhone();
    await advanceUntil(
      () => home.channels.calls[0]?.status === "canceled" && home.channels.receipts[0]?.cancelled === true,
      10_000,
    );
    expect(home.channels.receipts[0]?.cancelled).toBe(true);
    expect(home.channels.calls[0]?.status).toBe("canceled");
    const requestsAfterStop = home.channels.requests.length;
    await vi.advanceTimersByTimeAsync(120_000);
    await letSocketsAnswer();
    expect(home.channels.requests.length).toBe(requestsAfterStop);
  });

  it("starts no ladder when finished calls never escalate (the default), without reading presence", async () => {
    await using home = await finishedHome({ afterSeconds: null, stepSeconds: 30 });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    await home.post("ev-finished-2");
    await vi.advanceTimersByTimeAsync(600_000);
    await letSocketsAnswer();
    expect(home.presenceReads()).toBe(0);
    expect(home.relay.pushes).toHaveLength(0);
    expect(home.channels.requests).toHaveLength(0);
  });

  it("starts no ladder when the person is at the computer", async () => {
    await using home = await finishedHome({ afterSeconds: 10, stepSeconds: 10 });
    await savePresence(home.directory.path, { away: false, changedBy: "a test" }, new Date());
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    await home.post("ev-finished-3");
    await untilSocketsAnswer(() => home.presenceReads() === 1);
    await vi.advanceTimersByTimeAsync(600_000);
    await letSocketsAnswer();
    expect(home.relay.pushes).toHaveLength(0);
    expect(home.channels.requests).toHaveLength(0);
  });

  it("rings no rung for a call kept quiet (listed at the relay, never rung)", async () => {
    await using home = await finishedHome({ afterSeconds: 10, stepSeconds: 10 });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    await home.post("ev-finished-4");
    await untilSocketsAnswer(() => home.log.some((line) => line.includes("the finished call escalates")));
    home.relay.makeQuiet();
    await advanceUntil(() => false, 100_000);
    expect(home.relay.pushes).toHaveLength(0);
    expect(home.channels.requests).toHaveLength(0);
  });
});
