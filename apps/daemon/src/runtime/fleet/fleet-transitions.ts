import {
  FLEET_AGENTS_MAX,
  FLEET_ENDED_KEPT_MS,
  FLEET_HEADLINE_MAX_CHARS,
  type FleetAgent,
} from "@ringback/protocol";
import { type FleetAgentIdentity, type FleetChange, isEnded } from "./fleet-change.js";

/**
 * The agents after `change`, newest change first; the same array when nothing changed (so nothing is sent).
 * Pure: the runtime keeps the state, the file and the sending.
 */
export function applyFleetChange(
  agents: readonly FleetAgent[],
  change: FleetChange,
  now: Date,
): readonly FleetAgent[] {
  const since = now.toISOString();
  switch (change.kind) {
    case "turn-started":
      return upsert(agents, entry(change, { state: "working", since, eventId: null, headline: null }));
    case "turn-finished":
      return upsert(
        agents,
        entry(change, { state: "finished", since, eventId: change.eventId, headline: null }),
      );
    case "turn-failed":
      return upsert(
        agents,
        entry(change, { state: "failed", since, eventId: change.eventId, headline: cut(change.headline) }),
      );
    case "needs-you":
      return upsert(
        agents,
        entry(change, { state: "needs-you", since, eventId: change.eventId, headline: cut(change.headline) }),
      );
    case "ask-ended": {
      const asking = agents.find(
        (agent) =>
          agent.agentId === change.agentId && agent.state === "needs-you" && agent.eventId === change.eventId,
      );
      if (!asking) return agents;
      return upsert(agents, { ...asking, state: "working", since, eventId: null, headline: null });
    }
    case "brief-written": {
      const ended = agents.find((agent) => agent.eventId === change.eventId && isEnded(agent));
      if (!ended) return agents;
      const state = change.hasFailed ? "failed" : ended.state;
      const headline = cut(change.headline);
      if (state === ended.state && headline === ended.headline) return agents;
      // The brief tells what ended; the entry keeps its place and its time.
      return agents.map((agent) => (agent === ended ? { ...agent, state, headline } : agent));
    }
  }
}

/**
 * The agents still listed at `now`: ended ones leave FLEET_ENDED_KEPT_MS after they ended, and past FLEET_AGENTS_MAX
 * the oldest ended ones go first (then the oldest of any state). The same array when none leaves.
 */
export function keptAgents(agents: readonly FleetAgent[], now: Date): readonly FleetAgent[] {
  const oldestKept = now.getTime() - FLEET_ENDED_KEPT_MS;
  let kept = agents.filter((agent) => !isEnded(agent) || Date.parse(agent.since) >= oldestKept);
  while (kept.length > FLEET_AGENTS_MAX) {
    const oldestEnded = kept.findLastIndex(isEnded);
    const leaving = oldestEnded === -1 ? kept.length - 1 : oldestEnded;
    kept = kept.filter((_, index) => index !== leaving);
  }
  return kept.length === agents.length ? agents : kept;
}

function entry(
  identity: FleetAgentIdentity,
  state: Pick<FleetAgent, "state" | "since" | "eventId" | "headline">,
): FleetAgent {
  return { agentId: identity.agentId, source: identity.source, project: identity.project, ...state };
}

/** Puts the entry first (the newest change), replacing the agent's previous one; unchanged when it is the same. */
function upsert(agents: readonly FleetAgent[], next: FleetAgent): readonly FleetAgent[] {
  const previous = agents.find((agent) => agent.agentId === next.agentId);
  if (previous && isSameState(previous, next)) return agents;
  return [next, ...agents.filter((agent) => agent.agentId !== next.agentId)];
}

/** A repeated start of a working agent keeps its time: "working 12 min" counts from the first. */
function isSameState(previous: FleetAgent, next: FleetAgent): boolean {
  return (
    previous.state === next.state &&
    previous.eventId === next.eventId &&
    previous.headline === next.headline &&
    previous.project === next.project
  );
}

function cut(headline: string | null): string | null {
  if (headline === null) return null;
  const oneLine = headline.replace(/\s+/g, " ").trim();
  if (oneLine === "") return null;
  const codePoints = Array.from(oneLine);
  return codePoints.length <= FLEET_HEADLINE_MAX_CHARS
    ? oneLine
    : `${codePoints.slice(0, FLEET_HEADLINE_MAX_CHARS - 1).join("")}…`;
}
