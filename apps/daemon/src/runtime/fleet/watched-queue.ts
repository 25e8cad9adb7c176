import type { AcceptResult } from "@ringback/outbox";
import type { Report } from "@ringback/protocol";
import type { FleetRuntime } from "./fleet-runtime.js";
import { reportChange } from "./report-changes.js";

export interface ReportQueue {
  enqueue(report: Report): Promise<AcceptResult>;
}

/**
 * The outbox as every report reaches it (hook reports, tracker tasks, tracker questions): a report kept on disk
 * moves its agent in the fleet. `isQuestion` tells a tracker question's report by its event id.
 */
export function fleetWatchedQueue(
  queue: ReportQueue,
  fleet: Pick<FleetRuntime, "record">,
  isQuestion: (eventId: string) => boolean,
): ReportQueue {
  return {
    enqueue: async (report) => {
      const result = await queue.enqueue(report);
      const change = reportChange(report, isQuestion(report.eventId));
      if (change) fleet.record(change);
      return result;
    },
  };
}
