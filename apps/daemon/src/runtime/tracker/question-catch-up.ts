import { mapLimit, type StatusChanged, type TrackerClient } from "@ringback/tracker-client";
import { TRACKER_READS_IN_FLIGHT } from "./map-limit.js";
import { blockedQuestionKey } from "./question-sighting.js";
import { unlessGone } from "./task-report.js";

/** The status category whose moves ring as questions. */
const BLOCKED = "blocked";

/** A move to blocked found after the fact, as realtime would have shown it. */
export interface CaughtUpMove {
  /** Its time is the issue's update time when nothing changed the issue since the move, else the log's time. */
  activity: StatusChanged;
  /** The move's key, live or caught up, on any computer: by the time the tracker logged it. */
  key: string;
  /**
   * Other keys the same move may have rung under on this computer, by versions that keyed a move seen live by the
   * issue's update time (the log's time or a second before it) and a caught-up one by that time when nothing changed
   * the issue since.
   */
  olderKeys: string[];
}

/**
 * The moves into the blocked category made at or after `since` (whole seconds) that left an issue blocked until now,
 * from the tracker's issue list (blocked issues updated since then) and each one's activity log. Only the move that
 * put an issue in the status it has now: a move undone meanwhile asks nothing any more. Who made it is the log's
 * actor; whether it is a question (an agent's move) is the caller's rule, as for realtime.
 */
export async function movesToBlockedSince(
  client: TrackerClient,
  workspaceId: string,
  since: Date,
): Promise<CaughtUpMove[]> {
  const sinceSecondMs = Math.floor(since.getTime() / 1000) * 1000;
  const issues = await client.listIssuesUpdatedSince({ workspaceId, statusCategories: [BLOCKED], since });
  const moves = await mapLimit(
    issues,
    TRACKER_READS_IN_FLIGHT,
    async (issue): Promise<CaughtUpMove | null> => {
      const history = await unlessGone(
        client.listStatusMoves({ workspaceId, issueId: issue.id }),
        "issue_not_found",
      );
      const move = history?.at(-1);
      if (!move || move.to !== issue.status || move.from === move.to) return null;
      const movedAtMs = Date.parse(move.createdAt);
      if (!(movedAtMs >= sinceSecondMs)) return null;
      // The tracker logs a move just after updating the issue: an issue updated no later than that is as the move left
      // it, and its update time is the one realtime gave.
      const isUntouchedSince = Date.parse(issue.updatedAt) <= movedAtMs;
      const olderTimes = new Set([secondBefore(move.createdAt), isUntouchedSince ? issue.updatedAt : null]);
      return {
        activity: {
          kind: "status",
          workspaceId,
          issueId: issue.id,
          status: issue.status,
          statusCategory: issue.statusCategory,
          previousStatus: move.from || null,
          updatedAt: isUntouchedSince ? issue.updatedAt : move.createdAt,
          actor: { type: move.actorType, id: move.actorId },
        },
        key: blockedQuestionKey(issue.id, move.createdAt),
        olderKeys: [...olderTimes]
          .filter((time): time is string => time !== null && time !== move.createdAt)
          .map((time) => blockedQuestionKey(issue.id, time)),
      };
    },
  );
  return moves.filter((move) => move !== null);
}

/** The same RFC3339 time (whole seconds) a second earlier, written the same way: `Z` or the same offset. */
export function secondBefore(time: string): string | null {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(Z|([+-])(\d\d):(\d\d))$/.exec(time);
  const ms = Date.parse(time);
  if (!match || Number.isNaN(ms)) return null;
  const [, , zone = "Z", sign, hours = "0", minutes = "0"] = match;
  const offsetMs = (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000;
  return `${new Date(ms - 1000 + offsetMs).toISOString().slice(0, 19)}${zone}`;
}
