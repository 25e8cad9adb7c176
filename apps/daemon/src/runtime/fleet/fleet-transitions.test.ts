import {
  FLEET_AGENTS_MAX,
  FLEET_ENDED_KEPT_MS,
  FLEET_HEADLINE_MAX_CHARS,
  type FleetAgent,
} from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { applyFleetChange, keptAgents } from "./fleet-transitions.js";

const PAYMENTS = { agentId: "claude-code:s1", source: "claude-code", project: "payments" } as const;
const DOCS = { agentId: "codex:s2", source: "codex", project: "docs" } as const;
const at = (minute: number) => new Date(Date.UTC(2026, 11, 7, 4, minute));

function run(...steps: [Parameters<typeof applyFleetChange>[1], number][]): readonly FleetAgent[] {
  return steps.reduce<readonly FleetAgent[]>(
    (agents, [change, minute]) => applyFleetChange(agents, change, at(minute)),
    [],
  );
}

describe("applyFleetChange", () => {
  it("follows one agent: working, needs you, working again once decided, finished with its brief's headline", () => {
    const working = run([{ kind: "turn-started", ...PAYMENTS }, 0]);
    expect(working).toEqual([
      { ...PAYMENTS, state: "working", since: at(0).toISOString(), eventId: null, headline: null },
    ]);

    const asking = applyFleetChange(
      working,
      { kind: "needs-you", ...PAYMENTS, eventId: "needs_1", headline: "run npm run migrate" },
      at(2),
    );
    expect(asking[0]).toMatchObject({
      state: "needs-you",
      eventId: "needs_1",
      headline: "run npm run migrate",
    });

    const decided = applyFleetChange(
      asking,
      { kind: "ask-ended", agentId: PAYMENTS.agentId, eventId: "needs_1" },
      at(3),
    );
    expect(decided[0]).toMatchObject({
      state: "working",
      since: at(3).toISOString(),
      eventId: null,
      headline: null,
    });

    const finished = applyFleetChange(
      decided,
      { kind: "turn-finished", ...PAYMENTS, eventId: "ev_1" },
      at(9),
    );
    expect(finished[0]).toMatchObject({ state: "finished", eventId: "ev_1", headline: null });
    const briefed = applyFleetChange(
      finished,
      { kind: "brief-written", eventId: "ev_1", headline: "Migration done", hasFailed: false },
      at(10),
    );
    expect(briefed).toEqual([
      {
        ...PAYMENTS,
        state: "finished",
        since: at(9).toISOString(),
        eventId: "ev_1",
        headline: "Migration done",
      },
    ]);
  });

  it("puts the newest change first and keeps a working agent's time when it starts again", () => {
    const agents = run([{ kind: "turn-started", ...PAYMENTS }, 0], [{ kind: "turn-started", ...DOCS }, 1]);
    expect(agents.map((agent) => agent.agentId)).toEqual([DOCS.agentId, PAYMENTS.agentId]);
    expect(applyFleetChange(agents, { kind: "turn-started", ...PAYMENTS }, at(5))).toBe(agents);
  });

  it("changes nothing for an ask or a brief that is no longer the entry's", () => {
    const agents = run(
      [{ kind: "turn-started", ...PAYMENTS }, 0],
      [{ kind: "turn-finished", ...PAYMENTS, eventId: "ev_2" }, 1],
    );
    expect(
      applyFleetChange(agents, { kind: "ask-ended", agentId: PAYMENTS.agentId, eventId: "needs_9" }, at(2)),
    ).toBe(agents);
    expect(
      applyFleetChange(
        agents,
        { kind: "brief-written", eventId: "ev_other", headline: "x", hasFailed: false },
        at(2),
      ),
    ).toBe(agents);
  });

  it("keeps a finished turn with no headline when its brief failed, and cuts a long headline to one line", () => {
    const agents = run([{ kind: "turn-finished", ...PAYMENTS, eventId: "ev_3" }, 0]);
    expect(
      applyFleetChange(
        agents,
        { kind: "brief-written", eventId: "ev_3", headline: null, hasFailed: false },
        at(1),
      ),
    ).toBe(agents);
    const long = applyFleetChange(
      agents,
      { kind: "brief-written", eventId: "ev_3", headline: `Fixed\n${"x".repeat(400)}`, hasFailed: false },
      at(1),
    );
    expect(Array.from(long[0]?.headline ?? "")).toHaveLength(FLEET_HEADLINE_MAX_CHARS);
    expect(long[0]?.headline?.startsWith("Fixed x")).toBe(true);
  });

  it("marks a failed tracker task failed", () => {
    const task = { agentId: "tracker:t1", source: "tracker", project: "Search" } as const;
    const agents = run(
      [{ kind: "turn-finished", ...task, eventId: "tracker_t1" }, 0],
      [{ kind: "turn-failed", ...task, eventId: "tracker_t1", headline: null }, 0],
    );
    expect(agents).toEqual([
      { ...task, state: "failed", since: at(0).toISOString(), eventId: "tracker_t1", headline: null },
    ]);
  });
});

describe("keptAgents", () => {
  it("lets ended agents go a day after they ended, and keeps working ones", () => {
    const agents = run(
      [{ kind: "turn-started", ...PAYMENTS }, 0],
      [{ kind: "turn-finished", ...DOCS, eventId: "ev_4" }, 0],
    );
    const dayLater = new Date(at(0).getTime() + FLEET_ENDED_KEPT_MS + 1);
    expect(keptAgents(agents, at(1))).toBe(agents);
    expect(keptAgents(agents, dayLater).map((agent) => agent.agentId)).toEqual([PAYMENTS.agentId]);
  });

  it("keeps at most FLEET_AGENTS_MAX, the oldest ended going first", () => {
    let agents: readonly FleetAgent[] = applyFleetChange([], { kind: "turn-started", ...PAYMENTS }, at(0));
    for (let index = 0; index < FLEET_AGENTS_MAX; index++) {
      const agent = { agentId: `codex:${index}`, source: "codex", project: "p" } as const;
      agents = applyFleetChange(agents, { kind: "turn-finished", ...agent, eventId: `ev_${index}` }, at(1));
    }
    const kept = keptAgents(agents, at(2));
    expect(kept).toHaveLength(FLEET_AGENTS_MAX);
    expect(kept.map((agent) => agent.agentId)).toContain(PAYMENTS.agentId);
    expect(kept.map((agent) => agent.agentId)).not.toContain("codex:0");
  });
});
