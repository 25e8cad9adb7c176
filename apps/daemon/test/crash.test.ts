import { aad, openJson } from "@ringback/e2e-crypto";
import { OutboxStore, SEND_CONCURRENCY } from "@ringback/outbox";
import { type ReportRequest, SealedReportPayload } from "@ringback/protocol";
import { Changes, eventually, type ScriptedRelay } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintEventId } from "../src/runtime/briefs/event-id.js";
import { type DaemonProcess, launchDaemon, readDaemonKey, readLocalKey } from "./helpers/daemon-process.js";
import { makeRelayedHome, type RelayedHome } from "./helpers/relayed-home.js";

const REPORTS = 500;
const CLIENTS = 16;
/** Kills the run makes at least (it keeps crashing the daemon after the last post until then). */
const KILLS_MIN = 5;
/** Share of kills made while the daemon is still starting (recovering the outbox), not yet listening. */
const EARLY_KILL_SHARE = 0.2;
/** A client whose post got no 202 gives up on that report (as the hook does) this often, else resends it. */
const GIVE_UP_SHARE = 0.5;

const random = (min: number, max: number) => min + Math.random() * (max - min);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function makeRequest(index: number): ReportRequest {
  return {
    source: index % 3 === 0 ? "codex" : "claude-code",
    sessionId: `crash-session-${index % 37}`,
    turnId: `turn-${index}`,
    cwd: `/home/user/project-${index % 5}`,
    text: `Report ${index}: ${"the work is done and every test passes. ".repeat(1 + (index % 20))}`,
  };
}

/** Keeps one daemon on `home`, SIGKILLs it at random moments and starts it again, until told to settle. */
function crashLoop(home: string, env: Record<string, string>) {
  let current: DaemonProcess | null = null;
  const restarts = new Changes();
  let isSettling = false;
  let kills = 0;
  const loop = (async () => {
    for (;;) {
      const launch = launchDaemon(home, env);
      if (Math.random() < EARLY_KILL_SHARE) {
        await sleep(random(0, 150));
        await launch.kill();
        kills += 1;
        continue;
      }
      const daemon = await launch.listening;
      current = daemon;
      restarts.notify();
      await sleep(random(50, 300));
      // Reports are posted by then; crashing on until enough kills hit the sending and recovery phases too.
      if (isSettling && kills >= KILLS_MIN) return daemon;
      current = null;
      await daemon.kill();
      kills += 1;
    }
  })();
  return {
    kills: () => kills,
    /** The daemon that is up now, waiting while it restarts. */
    up(): Promise<DaemonProcess> {
      // A bound for a busy machine restarting daemons, not a speed check.
      return eventually(() => current, { what: "a daemon up", on: restarts, checks: 3_000 });
    },
    /** Stops crashing; resolves with the daemon left running. */
    settle(): Promise<DaemonProcess> {
      isSettling = true;
      return loop;
    },
  };
}

let home: RelayedHome;
let relay: ScriptedRelay;

beforeAll(async () => {
  // Small random delays keep sends in flight when the kills land.
  home = await makeRelayedHome({
    script: () => ({ status: 200, body: { ok: true }, delayMs: random(0, 15) }),
  });
  relay = home.relay;
});

afterAll(async () => {
  await home[Symbol.asyncDispose]();
});

describe("crash safety", () => {
  it("delivers every report that got a 202 despite SIGKILLs at random moments, and half-writes nothing", async () => {
    const env = { RINGBACK_SERVER_URL: relay.url };
    const crashes = crashLoop(home.path, env);
    const localKey = await readLocalKey(home.path).catch(async () => {
      await crashes.up();
      return readLocalKey(home.path);
    });
    const requests = Array.from({ length: REPORTS }, (_, index) => makeRequest(index));
    const eventIds = requests.map((request) => mintEventId(request));
    const acknowledged = new Set<string>();
    const givenUp = new Set<string>();
    let next = 0;

    const client = async () => {
      while (next < REPORTS) {
        const index = next++;
        const request = requests[index] as ReportRequest;
        for (;;) {
          const daemon = await crashes.up();
          const response = await fetch(`${daemon.url}/report`, {
            method: "POST",
            headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
            body: JSON.stringify(request),
            signal: AbortSignal.timeout(5000),
          }).catch(() => null);
          if (response?.status === 202) {
            acknowledged.add(eventIds[index] as string);
            break;
          }
          if (Math.random() < GIVE_UP_SHARE) {
            givenUp.add(eventIds[index] as string);
            break;
          }
        }
        await sleep(random(0, 20));
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    const survivor = await crashes.settle();

    await eventually(() => [...acknowledged].every((eventId) => relay.delivered.has(eventId)), {
      checks: 1_500,
      on: relay.changes,
    });
    expect(await survivor.stop()).toEqual({ code: 0, signal: null });

    const kills = crashes.kills();
    const resends = [...relay.delivered.values()].reduce((sum, count) => sum + count - 1, 0);
    console.log(
      `crash test: ${kills} kills, ${acknowledged.size} acknowledged, ${givenUp.size} given up, ` +
        `${relay.delivered.size} delivered, ${resends} resends of a delivered event (deduped by the relay)`,
    );
    expect(kills).toBeGreaterThanOrEqual(KILLS_MIN);
    expect(acknowledged.size + givenUp.size).toBe(REPORTS);

    // Every acknowledged report arrived; nothing arrived that was not posted.
    const known = new Set(eventIds);
    for (const eventId of acknowledged) expect(relay.delivered.has(eventId)).toBe(true);
    for (const eventId of relay.delivered.keys()) expect(known.has(eventId)).toBe(true);
    // A resend can only come from a send in flight at a kill (answered, not yet recorded).
    expect(resends).toBeLessThanOrEqual(kills * SEND_CONCURRENCY);

    // What arrived is whole: each first delivery opens with the daemon's key to the text that was posted.
    const key = await readDaemonKey(home.path);
    const textById = new Map(requests.map((request, index) => [eventIds[index], request.text]));
    const firstPosts = new Map(relay.posts.map((post) => [post.body.eventId, post.body] as const));
    for (const [eventId, post] of firstPosts) {
      const payload = SealedReportPayload.parse(await openJson(key, aad.report(eventId), post.sealed));
      expect(payload.report.text).toBe(textById.get(eventId));
    }

    // The store loads cleanly and holds only whole entries of posted reports.
    const store = await OutboxStore.open(home.path);
    try {
      expect(store.recovery.ignoredLines).toBe(0);
      for (const entry of store.entries()) {
        expect(entry.report.text).toBe(textById.get(entry.report.eventId));
      }
      for (const finished of store.finishedEntries()) expect(known.has(finished.eventId)).toBe(true);
    } finally {
      await store.close();
    }
  }, 240_000); // 500 reports through ~60 daemon restarts: about a minute alone, longer beside the other suites
});
