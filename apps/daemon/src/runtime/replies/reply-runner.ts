import { existsSync } from "node:fs";
import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  CANNOT_DECRYPT_REPLY,
  type DaemonToRelayMessage,
  REPLY_RUN_TIMEOUT_MS,
  type RelayToDaemonMessage,
  ReplyPlaintext,
} from "@ringback/protocol";
import type { LastSealedMessageFile } from "../last-sealed-message.js";
import type { Logger } from "../logger.js";
import type { SessionsFile } from "../sessions-file.js";
import { agentCommand } from "./agent-command.js";
import { type AgentRunResult, runAgent } from "./agent-run.js";
import type { EventSessions } from "./event-sessions.js";
import { INTERRUPTED_REASON, type RepliesFile, type ReplyRecord } from "./replies-file.js";

type LinkReply = Extract<RelayToDaemonMessage, { type: "reply" }>;
type LinkReplyStatus = Extract<DaemonToRelayMessage, { type: "reply-status" }>;

export interface ReplyRunnerOptions {
  replies: RepliesFile;
  eventSessions: EventSessions;
  sessions: SessionsFile;
  /** The daemon's current end-to-end key. */
  key(): E2eKey;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Tells the relay how a reply ended (false when the link is down: the relay resends, we answer again). */
  report(status: LinkReplyStatus): void;
  runTimeoutMs?: number;
  now?: () => Date;
  /** Where the key id of each new reply is kept for `ringback doctor`. */
  lastSealedMessage?: LastSealedMessageFile;
}

/**
 * Runs each reply at most once: the agent session of the reply's event is resumed with the reply text, and
 * `delivered` is reported when the resumed agent exits 0 (`failed` with a sealed reason otherwise). A resend of
 * a reply that is running is ignored; a resend of a finished one gets its final status again.
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
      const text = await this.#open(message);
      if (text === undefined) {
        await this.#finish(replyId, eventId, {
          state: "failed",
          reason: CANNOT_DECRYPT_REPLY,
          isPlaintextReason: true,
        });
        return;
      }
      const session = this.#session(eventId);
      if (typeof session === "string") {
        await this.#finish(replyId, eventId, { state: "failed", reason: session });
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
      );
    } finally {
      this.#arriving.delete(replyId);
    }
  }

  /**
   * The reply's text, or undefined when it was sealed with another key or is not a reply to this id. The key id
   * it names is kept for `ringback doctor` either way.
   */
  async #open(message: LinkReply): Promise<string | undefined> {
    // Sealed with another key, or altered: the same answer for both, it carries no content.
    const opened = await openJson(this.#options.key(), aad.reply(message.eventId), message.sealed).then(
      (value) => ({ value }),
      () => null,
    );
    this.#options.lastSealedMessage?.record("reply", message.sealed, opened !== null, this.#now());
    const reply = ReplyPlaintext.safeParse(opened?.value);
    // The associated data names the event only: the id inside keeps a reply from being replayed as another.
    return reply.success && reply.data.replyId === message.replyId ? reply.data.text : undefined;
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
      return Promise.resolve<AgentRunResult>({ isDelivered: false, reason: INTERRUPTED_REASON });
    }
    return runAgent({
      ...agentCommand(session.source, session, text, this.#options.env),
      cwd: session.cwd,
      env: this.#options.env,
      timeoutMs: this.#options.runTimeoutMs ?? REPLY_RUN_TIMEOUT_MS,
      signal: this.#stopping.signal,
    }).then((result) =>
      !result.isDelivered && this.#stopping.signal.aborted
        ? { isDelivered: false as const, reason: INTERRUPTED_REASON }
        : result,
    );
  }

  async #finish(
    replyId: string,
    eventId: string,
    outcome: Parameters<RepliesFile["finish"]>[2],
  ): Promise<void> {
    await this.#options.replies.finish(replyId, eventId, outcome, this.#now());
    const record = this.#options.replies.get(replyId);
    if (!record) return;
    this.#options.log(
      `reply ${replyId} ${record.state}${record.isPlaintextReason ? ` (${record.reason})` : ""}`,
    );
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
