import type { FleetAgent } from "@ringback/protocol";
import type { FleetBook } from "./fleet-book.js";

/** One agent as the fleet card lists it: the agent, and the computer it runs on. */
export interface FleetEntry extends FleetAgent {
  readonly computerId: string;
}

/**
 * Every computer's agents in one list, newest change first (the agent whose state changed last at the top); ties
 * keep one order on every device (computer, then agent).
 */
export function fleetList(book: FleetBook): FleetEntry[] {
  const entries = Object.entries(book).flatMap(([computerId, state]) =>
    state.agents.map((agent) => ({ ...agent, computerId })),
  );
  return entries.sort(
    (a, b) =>
      Date.parse(b.since) - Date.parse(a.since) ||
      compareText(a.computerId, b.computerId) ||
      compareText(a.agentId, b.agentId),
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The agents that wait for the person: a permission ask or a tracker question. */
export function needsYouEntries(entries: readonly FleetEntry[]): FleetEntry[] {
  return entries.filter((entry) => entry.state === "needs-you");
}
