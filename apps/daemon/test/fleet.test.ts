import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { openFleetState, sealedPlaintextBytes } from "@ringback/e2e-crypto";
import {
  FLEET_PAD_STEP_BYTES,
  FLEET_UPDATE_MIN_INTERVAL_MS,
  type FleetAgent,
  FleetState,
} from "@ringback/protocol";
import { eventually } from "@ringback/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { FLEET_FILE } from "../src/runtime/fleet/fleet-file.js";
import { setLocalPort } from "./helpers/daemon-process.js";
import { runHookToEnd } from "./helpers/hook-process.js";
import { bashAsk, sealDecision } from "./helpers/permission-asks.js";
import { COMPUTER_ID, permissionHomeForFile } from "./helpers/permission-home.js";

/**
 * The fleet as a person meets it: a real daemon process linked to a relay, the real hook run as the agents run it,
 * and each state the daemon puts on the relay opened with the account's key, as a phone opens it (FLEET.md, steps 1
 * and 2).
 */
const home = permissionHomeForFile({ waitMs: 60_000 });

// The hook finds the daemon (listening on a free port) where it always looks: daemon.json's localPort.
beforeAll(async () => {
  await setLocalPort(home().path, Number(new URL(home().daemon.url).port));
  // Away: an agent's permission ask rings the phones instead of showing at the keyboard.
  expect((await home().local("PUT", "/presence", { away: true })).status).toBe(200);
});

const SESSION = "session-fleet-payments";
const CWD = "/home/ada/projects/payments";
/** Checks (20 ms apart) for a coalesced put: the interval, and a busy machine. */
const PUT_CHECKS = 1_500;

async function openedStates(): Promise<FleetState[]> {
  return Promise.all(
    home().relay.fleetPuts.map(async (put) =>
      FleetState.parse(await openFleetState(home().key, COMPUTER_ID, put.sealed)),
    ),
  );
}

/** Waits until the relay holds a state whose entry for `agentId` matches `entry`, and returns that state. */
async function relayShows(agentId: string, entry: Partial<FleetAgent>): Promise<FleetState> {
  return eventually(
    async () => {
      const latest = (await openedStates()).at(-1);
      const agent = latest?.agents.find((candidate) => candidate.agentId === agentId);
      return agent && Object.entries(entry).every(([key, value]) => agent[key as keyof FleetAgent] === value)
        ? latest
        : undefined;
    },
    {
      what: `the relay's fleet state with ${agentId} ${JSON.stringify(entry)}`,
      on: home().relay.changes,
      checks: PUT_CHECKS,
    },
  );
}

describe("the fleet: what this computer's agents are doing, on the relay, sealed", () => {
  it("shows an agent working from its turn's start, then needs you while its ask rings, then finished", async () => {
    const agentId = `claude-code:${SESSION}`;
    const started = await runHookToEnd("claude-code", home().path, {
      session_id: SESSION,
      cwd: CWD,
      hook_event_name: "UserPromptSubmit",
      prompt: "run the migration",
    });
    expect(started).toMatchObject({ code: 0, stdout: "" });
    const working = await relayShows(agentId, { state: "working", project: "payments", eventId: null });
    expect(working.agents).toHaveLength(1);

    const { post, digest } = await home().ring(bashAsk("npm run migrate", { sessionId: SESSION, cwd: CWD }));
    const needsYou = await relayShows(agentId, { state: "needs-you", eventId: post.eventId });
    expect(needsYou.agents[0]?.headline).toBe("run npm run migrate");
    expect(needsYou.version).toBeGreaterThan(working.version);

    await home().relay.send(
      await sealDecision(home().key, COMPUTER_ID, {
        eventId: post.eventId,
        toolInputDigest: digest,
        verdict: "allow",
      }),
    );
    await relayShows(agentId, { state: "working", eventId: null });

    const stopped = await runHookToEnd("claude-code", home().path, {
      session_id: SESSION,
      cwd: CWD,
      prompt_id: "prompt-1",
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: "The migration ran; 3 tables changed.",
    });
    expect(stopped.code).toBe(0);
    const finished = await relayShows(agentId, { state: "finished" });
    const reportId = home().relay.postedEvents.at(-1);
    expect(finished.agents[0]?.eventId).toBe(reportId);
    // No model on this computer: the brief failed, so the entry stays finished with no headline.
    expect(finished.agents[0]?.headline).toBeNull();

    const versions = (await openedStates()).map((state) => state.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it("puts at most one state per interval, padded to a fixed step, and never an agent or project in the clear", async () => {
    const before = home().relay.fleetPuts.length;
    for (let index = 0; index < 6; index++) {
      await runHookToEnd("codex", home().path, {
        session_id: `session-burst-${index}`,
        turn_id: "turn-1",
        transcript_path: "/home/ada/.codex/sessions/rollout.jsonl",
        cwd: `/home/ada/projects/canary-project-${index}`,
        hook_event_name: "UserPromptSubmit",
        prompt: "go",
      });
    }
    await relayShows("codex:session-burst-5", { state: "working" });
    const puts = home().relay.fleetPuts.slice(before);
    // Six turn starts, coalesced: fewer puts, spaced by the interval (measured at the relay, so a little less when
    // one put travelled slower than the next), never faster than the relay's one per second.
    expect(puts.length).toBeLessThan(6);
    for (const [index, put] of puts.entries()) {
      if (index > 0)
        expect(put.receivedAt - (puts[index - 1]?.receivedAt ?? 0)).toBeGreaterThan(
          FLEET_UPDATE_MIN_INTERVAL_MS / 2,
        );
      expect(put.sealed).not.toContain("canary-project");
      expect(put.sealed).not.toContain("session-burst");
    }
    // The relay learns a size in steps only.
    for (const put of home().relay.fleetPuts)
      expect(sealedPlaintextBytes(put.sealed) % FLEET_PAD_STEP_BYTES).toBe(0);
  });

  it("keeps the state in a private file and puts the latest again after the link to the relay drops", async () => {
    const file = join(home().path, FLEET_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const kept = FleetState.parse(JSON.parse(await readFile(file, "utf8")));
    expect(kept.agents.map((agent) => agent.agentId)).toContain(`claude-code:${SESSION}`);

    const before = home().relay.fleetPuts.length;
    home().relay.dropLink();
    await home().relay.linked(2);
    await eventually(() => home().relay.fleetPuts.length > before, {
      what: "a put after the link came back",
      on: home().relay.changes,
      checks: PUT_CHECKS,
    });
    const [again] = (await openedStates()).slice(before);
    expect(again?.agents.map((agent) => agent.agentId)).toEqual(kept.agents.map((agent) => agent.agentId));
    expect(again?.version).toBeGreaterThan(kept.version);
  });
});
