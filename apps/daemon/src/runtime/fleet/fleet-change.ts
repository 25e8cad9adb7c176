import type { FleetAgent, ReportSource } from "@ringback/protocol";

/** Which agent a change is about, and where it works. */
export interface FleetAgentIdentity {
  /** `<source>:<sessionId>`, or `tracker:<taskId>`. */
  agentId: string;
  source: ReportSource;
  project: string;
}

/**
 * What happened to an agent, from the hook, a report, its brief, a permission ask or a tracker task (FLEET.md's
 * transitions). Each moves one entry; `brief-written` and `ask-ended` only touch the entry still on that event.
 */
export type FleetChange =
  | ({ kind: "turn-started" } & FleetAgentIdentity)
  | ({ kind: "turn-finished"; eventId: string } & FleetAgentIdentity)
  | ({ kind: "turn-failed"; eventId: string | null; headline: string | null } & FleetAgentIdentity)
  | ({ kind: "needs-you"; eventId: string; headline: string } & FleetAgentIdentity)
  | { kind: "ask-ended"; agentId: string; eventId: string }
  | { kind: "brief-written"; eventId: string; headline: string | null; hasFailed: boolean };

/** An ended agent (finished or failed): it leaves the state after a while, and goes first when it is full. */
export function isEnded(agent: FleetAgent): boolean {
  return agent.state === "finished" || agent.state === "failed";
}
