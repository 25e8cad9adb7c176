import { existsSync } from "node:fs";
import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  CANNOT_DECRYPT_REPLY,
  type DaemonToRelayMessage,
  REPLY_RUN_TIMEOUT_MS,
  type RelayToDaemonMessage,
  ReplyPlaintext,
} from "@ringback/protocol";
import type { SessionsFile } from "../files/sessions-file.js";
import type { LastSealedMessageFile } from "../keys/last-sealed-message.js";
import type { Logger } from "../logger.js";
import type { Admission, ReplayGuard } from "../replay-guard.js";
import { agentCommand } from "./agent-command.js";
import { type AgentRunResult, runAgent } from "./agent-run.js";
import type { EventSessions } from "./event-sessions.js";
import { INTERRUPTED_REASON, type RepliesFile, type ReplyRecord } from "./replies-file.js";

/** Where replies to tracker question calls go: a comment on the issue instead of a resumed agent session. */
export interface QuestionReplies {
  answers(eventId: string): boolean;
  post(eventId: string, text: string): Promise<AgentRunResult>;
}

type LinkReply = Extract<RelayToDaemonMessage, { type: "reply" }>;
type LinkReplyStatus = Extract<DaemonToRelayMessage, { type: "reply-status" }>;

export interface ReplyRunnerOptions {
  replies: RepliesFile;
  eventSessions: EventSessions;
  sessions: SessionsFile;
  /** The daemon's current end-to-end key. */
  key(): E2eKey;
  /** This computer's relay device id (a reply is sealed for it), or undefined without a relay identity. */
  computerId(): string | undefined;
  /** Takes each reply once, within its window. */
  guard: ReplayGuard;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Tells the relay how a reply ended (false when the link is down: the relay resends, we answer again). */
  report(status: LinkReplyStatus): void;
  runTimeoutMs?: number;
  now?: () => Date;
  /** Where the key id of each new reply is kept for `ringback doctor`. */
  lastSealedMessage?: LastSealedMessageFile;
  /** The tracker's question replies, once the tracker runtime exists. */
  questionReplies?(): QuestionReplies | null;
}

/** Why a reply is refused, said in plaintext: it carries nothing of the reply. */
const REFUSED_REPLY_REASONS: Record<Exclude<Admission, "accepted"> | "outdated", string> = {
  outdated: "sealed by an older app without the time and nonce this computer requires: update the app",
  replayed: "refused: this computer has already taken this reply (a copy sent again)",
  stale: "refused: sent too long ago, or the device's clock is behind this computer's",
  future: "refused: the device's clock is ahead of this computer's",
  full: "refused: this computer is holding too many recent replies; send it again later",
};

/**
 * Runs each reply at most once: the agent session of the reply's event is resumed with the reply text (a reply to
 * a tracker question call is posted as a comment on the issue instead), and
 * `delivered` is reported when the resumed agent exits 0 (`failed` with a sealed reason otherwise). A resend of
 * a reply that is running is ignored; a resend of a finished one gets its final status again. A reply must be
 * sealed for this computer and pass the replay guard (its time within the reply window, its nonce never seen), so
 * a copy a relay keeps cannot resume the agent again, however long after.
 */
export class ReplyRunner {
  readonly #options: ReplyRunnerOptions;
  /** Replies between their arrival and their `running` record on disk, so a quick resend waits its turn. */
  readonly #arriving = new Set<string>();
  /** One run per agent session at a time: two resumes of one session would write one transcript at once. */
  readonly #sessionRuns = new Map<string, Promise<unknown>>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #stopping = new AbortController();

  constructor(options: ReplyRunnerOptions) {
    this.#options = options;
  }

  /** Takes a reply from the relay; resolves when it is settled (or ignored). */
  handle(message: LinkReply): Promise<void> {
    const work = this.#handle(message).catch((error: unknown) => {
      this.#options.log(
        `reply ${message.replyId}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work));
    return work;
  }

  /** Stops running agents (their replies fail as interrupted) and waits for every reply to be recorded. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await Promise.all(this.#inFlight);
  }

  async #handle(message: LinkReply): Promise<void> {
    const { replyId, eventId } = message;
    const known = this.#options.replies.get(replyId);
    if (known || this.#arriving.has(replyId)) {
      if (known && known.state !== "running") await this.#report(replyId, known);
      else this.#options.log(`reply ${replyId} is already running: the resend is ignored`);
      return;
    }
    if (this.#stopping.signal.aborted) return;
    this.#arriving.add(replyId);
    try {
      const reply = await this.#open(message);
      if (typeof reply === "string") {
        await this.#finish(replyId, eventId, { state: "failed", reason: reply, isPlaintextReason: true });
        return;
      }
      const admission = await this.#options.guard.admit("reply", reply);
      if (admission !== "accepted") {
        this.#options.log(`reply ${replyId} refused: ${admission}`);
        await this.#finish(replyId, eventId, {
          state: "failed",
          reason: REFUSED_REPLY_REASONS[admission],
          isPlaintextReason: true,
        });
        return;
      }
      const { text } = reply;
      const questionReplies = this.#options.questionReplies?.();
      if (questionReplies?.answers(eventId)) {
        await this.#options.replies.start(replyId, eventId, this.#now());
        this.#arriving.delete(replyId);
        this.#options.log(`reply ${replyId}: posting it as a comment on the tracker issue`);
        const result = await questionReplies.post(eventId, text);
        await this.#finish(
          replyId,
          eventId,
          result.isDelivered ? { state: "delivered" } : { state: "failed", reason: result.reason },
          result.isDelivered ? undefined : result.summary,
        );
        return;
      }
      const session = this.#session(eventId);
      if (typeof session === "string") {
        await this.#finish(replyId, eventId, { state: "failed", reason: session }, session);
        return;
      }
      await this.#options.replies.start(replyId, eventId, this.#now());
      this.#arriving.delete(replyId);
      this.#options.log(`reply ${replyId}: resuming the ${session.source} session ${session.sessionId}`);
      const result = await this.#runInSession(session.sessionId, () => this.#run(session, text));
      await this.#finish(
        replyId,
        eventId,
        result.isDelivered ? { state: "delivered" } : { state: "failed", reason: result.reason },
        result.isDelivered ? undefined : result.summary,
      );
    } finally {
      this.#arriving.delete(replyId);
    }
  }

  /**
   * The reply (its text and stamp), or the plaintext reason it cannot run: sealed with another key, for another
   * computer, or not a reply to this id (CANNOT_DECRYPT_REPLY), or by an older app. The key id it names is kept for
   * `ringback doctor` either way.
   */
  async #open(message: LinkReply): Promise<ReplyPlaintext | string> {
    const key = this.#options.key();
    const computerId = this.#options.computerId();
    // Sealed with another key, or altered: the same answer for both, it carries no content.
    const opened = computerId
      ? await openJson(key, aad.replyTo(computerId, message.eventId), message.sealed).then(
          (value) => ({ value }),
          () => null,
        )
      : null;
    const isOutdated =
      !opened &&
      (await openJson(key, aad.reply(message.eventId), message.sealed).then(
        () => true,
        () => false,
      ));
    this.#options.lastSealedMessage?.record(
      "reply",
      message.sealed,
      opened !== null || isOutdated,
      this.#now(),
    );
    if (isOutdated) return REFUSED_REPLY_REASONS.outdated;
    const reply = ReplyPlaintext.safeParse(opened?.value);
    // The associated data names the event only: the id inside keeps a reply from being replayed as another.
    return reply.success && reply.data.replyId === message.replyId ? reply.data : CANNOT_DECRYPT_REPLY;
  }

  /** Where to resume, or why it cannot be. */
  #session(eventId: string) {
    const event = this.#options.eventSessions.get(eventId);
    if (!event) return "this computer does not know the agent session of this call (reported too long ago?)";
    const cwd = this.#options.sessions.get(event.sessionId)?.cwd ?? event.cwd;
    if (!existsSync(cwd)) return `the session's directory ${cwd} no longer exists`;
    return { ...event, cwd };
  }

  #runInSession(sessionId: string, run: () => Promise<AgentRunResult>): Promise<AgentRunResult> {
    const previous = this.#sessionRuns.get(sessionId) ?? Promise.resolve();
    const next = previous.then(run, run);
    this.#sessionRuns.set(sessionId, next);
    void next.finally(() => {
      if (this.#sessionRuns.get(sessionId) === next) this.#sessionRuns.delete(sessionId);
    });
    return next;
  }

  #run(session: { source: "claude-code" | "codex"; sessionId: string; cwd: string }, text: string) {
    if (this.#stopping.signal.aborted) {
      return Promise.resolve<AgentRunResult>({
        isDelivered: false,
        reason: INTERRUPTED_REASON,
        summary: INTERRUPTED_REASON,
      });
    }
    return runAgent({
      ...agentCommand(session.source, session, text, this.#options.env),
      cwd: session.cwd,
      env: this.#options.env,
      timeoutMs: this.#options.runTimeoutMs ?? REPLY_RUN_TIMEOUT_MS,
      signal: this.#stopping.signal,
    }).then((result) =>
      !result.isDelivered && this.#stopping.signal.aborted
        ? { isDelivered: false as const, reason: INTERRUPTED_REASON, summary: INTERRUPTED_REASON }
        : result,
    );
  }

  /** `summary`: why it failed without the agent's or the person's words (a sealed reason may quote them). */
  async #finish(
    replyId: string,
    eventId: string,
    outcome: Parameters<RepliesFile["finish"]>[2],
    summary?: string,
  ): Promise<void> {
    await this.#options.replies.finish(replyId, eventId, outcome, this.#now());
    const record = this.#options.replies.get(replyId);
    if (!record) return;
    const why = record.isPlaintextReason ? record.reason : summary;
    this.#options.log(`reply ${replyId} ${record.state}${why ? ` (${why})` : ""}`);
    await this.#report(replyId, record);
  }

  async #report(replyId: string, record: Readonly<ReplyRecord>): Promise<void> {
    if (record.state === "running") return;
    if (record.state === "delivered") {
      this.#options.report({ type: "reply-status", replyId, status: "delivered" });
      return;
    }
    const reason = record.reason ?? "failed";
    if (record.isPlaintextReason) {
      this.#options.report({ type: "reply-status", replyId, status: "failed", plaintextReason: reason });
      return;
    }
    const sealedReason = await sealJson(this.#options.key(), aad.replyError(replyId), { reason });
    this.#options.report({ type: "reply-status", replyId, status: "failed", sealedReason });
  }

  #now(): Date {
    return (this.#options.now ?? (() => new Date()))();
  }
}
