import type { Brief, Report } from "@ringback/protocol";
import { reportAgent } from "./fleet-agent-identity.js";
import type { FleetChange } from "./fleet-change.js";

/**
 * The change a report kept in the outbox makes: a local agent's or a tracker task's turn finished; a tracker
 * question (`isQuestion`) is the task needing the person, with the question as what it wants.
 */
export function reportChange(report: Report, isQuestion: boolean): FleetChange | undefined {
  const agent = reportAgent(report);
  if (!agent) return undefined;
  if (isQuestion) return { kind: "needs-you", ...agent, eventId: report.eventId, headline: report.text };
  return { kind: "turn-finished", ...agent, eventId: report.eventId };
}

/** A tracker task the tracker says failed: its entry is failed, under its report's call. */
export function failedTaskChange(report: Report): FleetChange | undefined {
  const agent = reportAgent(report);
  if (!agent) return undefined;
  return { kind: "turn-failed", ...agent, eventId: report.eventId, headline: null };
}

/**
 * The change a written brief makes: the checked brief's title is the headline of the turn it ended; a failed brief
 * (no model, a model error) leaves the entry finished with no headline.
 */
export function briefChange(report: Report, brief: Brief): FleetChange {
  const isGenerated = brief.meta.status === "generated";
  return {
    kind: "brief-written",
    eventId: report.eventId,
    headline: isGenerated ? brief.title : null,
    hasFailed: false,
  };
}
