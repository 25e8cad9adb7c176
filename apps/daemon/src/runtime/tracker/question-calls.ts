import type { Comment, IssueActivity, TrackerClient, TrackerUser } from "@ringback/tracker-client";
import type { Logger } from "../logger.js";
import type { ReportQueue } from "./hook-turns.js";
import { keyedByLog } from "./logged-move.js";
import { type CaughtUpMove, movesToBlockedSince } from "./question-catch-up.js";
import { AgentComments, BLOCKED_EXPLANATION_WAIT_MS, type ExplanationWait } from "./question-explanation.js";
import { readQuestionReport } from "./question-report.js";
import { isAgentWords, type QuestionSighting, questionIn } from "./question-sighting.js";
import type { WorkspaceNames } from "./task-report.js";
import { trackerEventId } from "./tracker-event-id.js";
import type { TrackerQuestions } from "./tracker-questions.js";

/** What happens with a comment or a status change seen on a watched workspace. */
export type IssueActivityHandler = (client: TrackerClient, activity: IssueActivity) => Promise<void>;

export interface QuestionCallOptions {
  /** The outbox itself: a question's event id is new to the hook-report check too. */
  outbox: ReportQueue;
  questions: TrackerQuestions;
  log: Logger;
  /** How long a move to blocked waits for the agent's explanation; default BLOCKED_EXPLANATION_WAIT_MS. */
  explanationWaitMs?: number;
  /** This computer's clock; default Date.now. */
  now?: () => number;
  /** Aborted when the daemon stops: waits for explanations end. */
  signal: AbortSignal;
}

/**
 * Agents' questions to the user, rung as "needs you" calls. A question on a watched issue becomes one report in the
 * outbox, its question remembered first (for its brief, its seal and the reply). Its ids derive from the question
 * alone: the outbox refuses it a second time on this computer (after a restart too), and the relay answers another
 * computer `duplicate_task`. A move to blocked rings once the agent that made it has written on the issue, or
 * BLOCKED_EXPLANATION_WAIT_MS after the move: the call reads the agent's newest comment. Its key goes by the time the
 * tracker logged the move, which realtime does not carry but every computer's catch-up reads.
 */
export class QuestionCalls {
  readonly #outbox: ReportQueue;
  readonly #questions: TrackerQuestions;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #waitMs: number;
  readonly #agentComments: AgentComments;
  readonly #workspaceNames: WorkspaceNames = new Map();
  /** The token's user, read once per client (a new token means a new client). */
  readonly #users = new WeakMap<TrackerClient, Promise<TrackerUser>>();

  constructor(options: QuestionCallOptions) {
    this.#outbox = options.outbox;
    this.#questions = options.questions;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#waitMs = options.explanationWaitMs ?? BLOCKED_EXPLANATION_WAIT_MS;
    this.#agentComments = new AgentComments({ now: this.#now, signal: options.signal, keptMs: this.#waitMs });
  }

  /** A comment or status change seen in realtime. */
  async onActivity(client: TrackerClient, activity: IssueActivity): Promise<void> {
    const seenAtMs = this.#now();
    const position = this.#agentComments.position();
    if (activity.kind === "comment" && isAgentWords(activity.comment))
      this.#agentComments.seen(activity.issueId, activity.comment.authorId);
    if (!mayBeQuestion(activity)) return;
    const user = await this.#userOf(client);
    const sighting = questionIn(activity, user.id);
    if (!sighting) return;
    const isWaiting = sighting.trigger === "blocked" && this.#isWaiting(seenAtMs);
    if (isWaiting && (await this.#awaitExplanation(sighting, position, seenAtMs)) === "stopped") return;
    const keyed =
      activity.kind === "status" ? await keyedByLog(client, activity, sighting, this.#log) : sighting;
    await this.#ring(client, keyed, user.id);
  }

  /**
   * The comments a finished task wrote, read again (its realtime events may have been missed while disconnected):
   * each question among them rings, once. Resolves to the ids of those that are questions.
   */
  async ringQuestionsOf(
    client: TrackerClient,
    workspaceId: string,
    comments: readonly Comment[],
  ): Promise<Set<string>> {
    const asked = new Set<string>();
    const candidates = comments.filter((comment) => comment.content.includes("mention://member/"));
    if (candidates.length === 0) return asked;
    const user = await this.#userOf(client);
    for (const comment of candidates) {
      const activity = { kind: "comment" as const, workspaceId, issueId: comment.issueId, comment };
      const sighting = questionIn({ ...activity, actor: { type: "agent", id: comment.authorId } }, user.id);
      if (!sighting) continue;
      asked.add(comment.id);
      await this.#ring(client, sighting, user.id);
    }
    return asked;
  }

  /**
   * The watcher's catch-up (the same time as its finished tasks'): each agent's move to blocked made since `since`
   * that left its issue blocked rings, once, under the key realtime gives it. A person's move does not.
   */
  async catchUp(client: TrackerClient, workspaceId: string, since: Date): Promise<void> {
    const moves = await movesToBlockedSince(client, workspaceId, since);
    const user = moves.length > 0 ? await this.#userOf(client) : null;
    const asked = user ? moves.flatMap((move) => questionOf(move, user.id)) : [];
    this.#log(
      `tracker: caught up on moves to blocked in workspace ${workspaceId} since ${since.toISOString()} (${moves.length} found, ${asked.length} by agents)`,
    );
    if (!user) return;
    await Promise.all(
      asked
        .filter((question) => this.#isNew(question))
        .map(async ({ sighting }) => {
          const nowMs = this.#now();
          const position = this.#agentComments.position();
          // The tracker's clock, but never later than this computer's: a move made while away waits the less.
          const fromMs = Math.min(nowMs, Date.parse(sighting.occurredAt) || nowMs);
          // An explanation written while this computer was away is there already: no wait then.
          const isWaiting = this.#isWaiting(fromMs) && !(await hasExplained(client, sighting));
          if (isWaiting && (await this.#awaitExplanation(sighting, position, fromMs)) === "stopped") return;
          await this.#ring(client, sighting, user.id);
        }),
    );
  }

  async #ring(client: TrackerClient, sighting: QuestionSighting, userId: string): Promise<void> {
    const read = await readQuestionReport(client, sighting, userId, this.#workspaceNames);
    if (!read) {
      this.#log(`tracker: ${sighting.key} needs no call (the issue is gone, or its comment rang already)`);
      return;
    }
    const { report, question } = read;
    // A question found again (a catch-up after a restart) keeps what it rang with: a reply still goes under that comment.
    if (!this.#questions.get(report.eventId)) await this.#questions.remember(report.eventId, question);
    const result = await this.#outbox.enqueue(report);
    this.#log(
      `tracker: ${question.agentName || "an agent"} asks on ${question.issueIdentifier} (${sighting.trigger}): ${result === "accepted" ? "queued" : "already queued"} as ${report.eventId}`,
    );
  }

  /** Whether a caught-up question did not ring already on this computer under a key an older version gave it. */
  #isNew({ sighting, olderKeys }: CaughtUpQuestion): boolean {
    const rangAs = olderKeys.find((key) => this.#questions.get(trackerEventId(key)));
    if (rangAs === undefined) return true;
    this.#log(`tracker: ${sighting.key} rang already as ${rangAs}; no second call`);
    return false;
  }

  /** Whether a move seen (or made) at `fromMs` still waits for its explanation. */
  #isWaiting(fromMs: number): boolean {
    return this.#waitMs > 0 && fromMs + this.#waitMs > this.#now();
  }

  /**
   * Until the agent that moved the issue writes on it (after `position` in realtime), at most the wait after
   * `fromMs`; "stopped" when the daemon stops meanwhile (the move does not ring then).
   */
  async #awaitExplanation(
    sighting: QuestionSighting,
    position: number,
    fromMs: number,
  ): Promise<ExplanationWait> {
    const untilMs = fromMs + this.#waitMs;
    this.#log(`tracker: ${sighting.key} waits up to ${untilMs - this.#now()} ms for the agent's explanation`);
    const how = await this.#agentComments.waitFor(sighting.issueId, sighting.agentId, position, untilMs);
    this.#log(`tracker: ${sighting.key} stopped waiting for an explanation (${how})`);
    return how;
  }

  #userOf(client: TrackerClient): Promise<TrackerUser> {
    const known = this.#users.get(client);
    if (known) return known;
    const reading = client.getMe();
    this.#users.set(client, reading);
    reading.catch(() => this.#users.delete(client));
    return reading;
  }
}

/** A caught-up move that is a question, and the other keys it may have rung under. */
interface CaughtUpQuestion {
  sighting: QuestionSighting;
  olderKeys: string[];
}

/** The question of a caught-up move: none unless an agent made it. */
function questionOf({ activity, key, olderKeys }: CaughtUpMove, userId: string): CaughtUpQuestion[] {
  const sighting = questionIn(activity, userId);
  return sighting ? [{ sighting: { ...sighting, key }, olderKeys }] : [];
}

/** Whether the agent that moved the issue to blocked has written on it since (from the move's second on). */
async function hasExplained(client: TrackerClient, sighting: QuestionSighting): Promise<boolean> {
  const movedAtMs = Date.parse(sighting.occurredAt);
  if (Number.isNaN(movedAtMs)) return false;
  const comments = await client.listComments({
    workspaceId: sighting.workspaceId,
    issueId: sighting.issueId,
    // `since` is strict and the tracker's times whole seconds: from the start of the move's second.
    since: new Date(Math.floor(movedAtMs / 1000) * 1000 - 1),
  });
  return comments.some((comment) => comment.authorId === sighting.agentId && isAgentWords(comment));
}

/** Cheap first look, so the user is read only for activity that could be a question. */
function mayBeQuestion(activity: IssueActivity): boolean {
  return activity.kind === "comment"
    ? activity.comment.authorType === "agent" && activity.comment.content.includes("mention://member/")
    : activity.actor.type === "agent" && activity.statusCategory === "blocked";
}
