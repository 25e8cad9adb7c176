import type { FleetAgent, ReportSource } from "@ringback/protocol";
import type { ComputerFleet } from "./account-fleet.js";

const AGENT_NAMES: Record<ReportSource, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  tracker: "Tracker",
};

/**
 * What an agent is doing, in the phone's words: "working 12 min", "needs you: run npm test", "finished 2 min ago —
 * Links fixed", "failed 1 h ago".
 */
export function agentStateWords(agent: FleetAgent, now: Date): string {
  const elapsed = elapsedWords(now.getTime() - Date.parse(agent.since));
  switch (agent.state) {
    case "working":
      return `working ${elapsed}`;
    case "needs-you":
      return agent.headline ? `needs you: ${agent.headline}` : "needs you";
    case "finished":
    case "failed":
      return `${agent.state} ${elapsed} ago${agent.headline ? ` — ${agent.headline}` : ""}`;
  }
}

/** "0 min", "12 min", "3 h", "2 days": the time a person reads at a glance. */
export function elapsedWords(milliseconds: number): string {
  const minutes = Math.max(0, Math.floor(milliseconds / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? "" : "s"}`;
}

/**
 * The fleet as lines for a terminal: every computer's agents in one list, newest change first, each with its
 * project, agent, computer and state; a line for a computer whose state does not open with this key.
 */
export function fleetLines(
  computers: readonly ComputerFleet[],
  now: Date,
  thisComputerId?: string,
): string[] {
  const rows = computers.flatMap(({ computerId, name, state }) =>
    (state?.agents ?? []).map((agent) => ({
      agent,
      computer: computerLabel(computerId, name, thisComputerId),
    })),
  );
  rows.sort((left, right) => Date.parse(right.agent.since) - Date.parse(left.agent.since));
  const lines = rows.map(
    ({ agent, computer }) =>
      `  ${agent.project || "(no project)"} · ${AGENT_NAMES[agent.source]} on ${computer}: ${agentStateWords(agent, now)}`,
  );
  for (const { computerId, name, state } of computers) {
    if (state === null)
      lines.push(
        `  ${computerLabel(computerId, name, thisComputerId)}: its agents do not open with this key`,
      );
  }
  const count = rows.length;
  const heading = count === 0 ? "No agents are running or ended lately." : `Agents (${count}):`;
  return [heading, ...lines];
}

function computerLabel(computerId: string, name: string | null, thisComputerId: string | undefined): string {
  if (computerId === thisComputerId) return name ? `${name} (this computer)` : "this computer";
  return name ?? computerId;
}

/** What the list shows apart from the passing minutes: it changed when this changed. */
export function fleetSignature(computers: readonly ComputerFleet[]): string {
  return JSON.stringify(
    computers.map(({ computerId, name, state }) => [
      computerId,
      name,
      state?.agents.map((agent) => [
        agent.agentId,
        agent.project,
        agent.state,
        agent.eventId,
        agent.headline,
      ]) ?? null,
    ]),
  );
}
