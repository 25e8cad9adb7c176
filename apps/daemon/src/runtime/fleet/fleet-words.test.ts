import type { FleetAgent } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { agentStateWords, elapsedWords, fleetLines } from "./fleet-words.js";

const NOW = new Date("2026-12-07T04:30:00.000Z");
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();
const agent = (overrides: Partial<FleetAgent>): FleetAgent => ({
  agentId: "claude-code:s",
  source: "claude-code",
  project: "payments",
  state: "working",
  since: minutesAgo(12),
  eventId: null,
  headline: null,
  ...overrides,
});

describe("the fleet in words", () => {
  it("says what each agent does as the phone does", () => {
    expect(agentStateWords(agent({}), NOW)).toBe("working 12 min");
    expect(agentStateWords(agent({ state: "needs-you", headline: "run npm run migrate" }), NOW)).toBe(
      "needs you: run npm run migrate",
    );
    expect(
      agentStateWords(agent({ state: "finished", since: minutesAgo(2), headline: "Links fixed" }), NOW),
    ).toBe("finished 2 min ago — Links fixed");
    expect(agentStateWords(agent({ state: "failed", since: minutesAgo(90) }), NOW)).toBe("failed 1 h ago");
    expect([elapsedWords(-5), elapsedWords(59_999), elapsedWords(3 * 24 * 3_600_000)]).toEqual([
      "0 min",
      "0 min",
      "3 days",
    ]);
  });

  it("lists every computer's agents in one list, newest change first, and a state that does not open", () => {
    const lines = fleetLines(
      [
        {
          computerId: "dev_laptop",
          name: "laptop",
          state: { version: 3, updatedAt: NOW.toISOString(), agents: [agent({})] },
        },
        {
          computerId: "dev_desk",
          name: "desk",
          state: {
            version: 9,
            updatedAt: NOW.toISOString(),
            agents: [
              agent({
                agentId: "codex:d",
                source: "codex",
                project: "docs",
                state: "finished",
                since: minutesAgo(2),
              }),
            ],
          },
        },
        { computerId: "dev_old", name: null, state: null },
      ],
      NOW,
      "dev_laptop",
    );
    expect(lines).toEqual([
      "Agents (2):",
      "  docs · Codex on desk: finished 2 min ago",
      "  payments · Claude Code on laptop (this computer): working 12 min",
      "  dev_old: its agents do not open with this key",
    ]);
    expect(fleetLines([], NOW)).toEqual(["No agents are running or ended lately."]);
  });
});
