import type { StatusChanged, StatusMove, TrackerClient } from "@ringback/tracker-client";
import type { Logger } from "../logger.js";
import { blockedQuestionKey, type QuestionSighting } from "./question-sighting.js";

/**
 * How long after the issue's update the tracker may log the move in its timeline. It logs right after the update (the
 * realtime event goes out in between), so the clock can tick over into the next second; this leaves room for a slow
 * database without mistaking a later move for this one.
 */
const MOVE_LOGGED_WITHIN_MS = 5_000;

/**
 * The time the tracker logged a status change seen in realtime, from the issue's status moves (oldest first): the
 * first move by the same actor into the same status (from the same one, when known) logged in the update's second or
 * within MOVE_LOGGED_WITHIN_MS after it. Null when the timeline has no such entry.
 */
export function loggedTimeOf(change: StatusChanged, moves: readonly StatusMove[]): string | null {
  const updatedAtMs = Date.parse(change.updatedAt);
  if (Number.isNaN(updatedAtMs)) return null;
  const fromMs = Math.floor(updatedAtMs / 1000) * 1000;
  const move = moves.find((candidate) => {
    const loggedAtMs = Date.parse(candidate.createdAt);
    return (
      candidate.to === change.status &&
      (change.previousStatus === null || candidate.from === change.previousStatus) &&
      candidate.actorId === change.actor.id &&
      loggedAtMs >= fromMs &&
      loggedAtMs <= updatedAtMs + MOVE_LOGGED_WITHIN_MS
    );
  });
  return move?.createdAt ?? null;
}

/**
 * A move to blocked seen live, keyed by the time the tracker logged it (read once its call is due, when the log has
 * it): the key another computer's catch-up gives the same move. By the issue's update time, as realtime gave it, when
 * the log has no entry for the move or cannot be read.
 */
export async function keyedByLog(
  client: TrackerClient,
  change: StatusChanged,
  sighting: QuestionSighting,
  log: Logger,
): Promise<QuestionSighting> {
  const { workspaceId, issueId } = change;
  let why: string;
  try {
    const loggedAt = loggedTimeOf(change, await client.listStatusMoves({ workspaceId, issueId }));
    if (loggedAt !== null) return { ...sighting, key: blockedQuestionKey(issueId, loggedAt) };
    why = "the issue's timeline has no entry for it";
  } catch (error) {
    why = `the issue's timeline could not be read (${error instanceof Error ? error.message : String(error)})`;
  }
  log(`tracker: ${sighting.key} keeps the issue's update time as its key: ${why}`);
  return sighting;
}
