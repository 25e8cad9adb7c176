import { join } from "node:path";
import { writeFileDurably } from "@ringback/outbox";
import { z } from "zod";
import { readTextIfExists, tightenFileMode } from "../files/private-file.js";
import type { Logger } from "../logger.js";
import { StartError } from "../start-error.js";

/** `{data_dir}/replies.json`: every reply this daemon has taken on, so none runs twice. */
export const REPLIES_FILE = "replies.json";
/** Finished replies remembered; the relay resends only unsettled replies, and never after a day. */
const FINISHED_REPLIES_KEPT = 1000;
/** The failure reason of a reply whose run a daemon stop or crash cut short. */
export const INTERRUPTED_REASON = "interrupted by a daemon restart";

const ReplyState = z.enum(["running", "delivered", "failed"]);

export const ReplyRecord = z.object({
  eventId: z.string(),
  state: ReplyState,
  /** Why it failed. Sealed for the client when reported, except a plaintext one (cannot decrypt). */
  reason: z.string().nullable(),
  isPlaintextReason: z.boolean(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ReplyRecord = z.infer<typeof ReplyRecord>;

const RepliesFileContent = z.object({
  version: z.literal(1),
  replies: z.record(z.string(), ReplyRecord),
});

/**
 * replyId -> what became of it, written durably (temporary file, fsync, rename, mode 600) before a reply's agent
 * starts: a reply found `running` at the next start was cut short, and is reported failed, never rerun.
 */
export class RepliesFile {
  readonly #path: string;
  readonly #replies: Map<string, ReplyRecord>;
  #writes: Promise<unknown> = Promise.resolve();

  private constructor(path: string, replies: Map<string, ReplyRecord>) {
    this.#path = path;
    this.#replies = replies;
  }

  /**
   * Reads the file and turns every `running` reply into a failed one (interrupted). An unreadable file stops
   * the start: starting afresh could run a reply a second time.
   */
  static async load(dataDir: string, log: Logger, now: Date): Promise<RepliesFile> {
    const path = join(dataDir, REPLIES_FILE);
    const text = await readTextIfExists(path);
    const replies = new Map<string, ReplyRecord>();
    if (text !== null) {
      await tightenFileMode(path, log);
      const parsed = RepliesFileContent.safeParse(safeJsonParse(text));
      if (!parsed.success) {
        throw new StartError(
          `${path} could not be read. Move it away to start (the replies it lists could then run again).`,
        );
      }
      for (const [replyId, record] of Object.entries(parsed.data.replies)) replies.set(replyId, record);
    }
    const file = new RepliesFile(path, replies);
    const interrupted = [...replies].filter(([, record]) => record.state === "running");
    for (const [replyId, record] of interrupted) {
      file.#replies.set(replyId, finished(record, "failed", INTERRUPTED_REASON, now));
    }
    if (interrupted.length > 0) {
      await file.#write();
      log(
        `${interrupted.length} reply run(s) were cut short by a daemon restart: reported failed, not rerun`,
      );
    }
    return file;
  }

  get(replyId: string): Readonly<ReplyRecord> | undefined {
    return this.#replies.get(replyId);
  }

  /** Records a reply as running; resolves once that is on disk, so its agent may start. */
  start(replyId: string, eventId: string, now: Date): Promise<void> {
    this.#replies.set(replyId, running(eventId, now));
    return this.#write();
  }

  /** Records how a reply ended (also one that never ran: it could not be opened or resumed). */
  finish(
    replyId: string,
    eventId: string,
    outcome: { state: "delivered" } | { state: "failed"; reason: string; isPlaintextReason?: boolean },
    now: Date,
  ): Promise<void> {
    const record = this.#replies.get(replyId) ?? running(eventId, now);
    const reason = outcome.state === "failed" ? outcome.reason : null;
    const next = finished(record, outcome.state, reason, now);
    if (outcome.state === "failed" && outcome.isPlaintextReason) next.isPlaintextReason = true;
    this.#replies.delete(replyId);
    this.#replies.set(replyId, next);
    this.#forgetOldestFinished();
    return this.#write();
  }

  #forgetOldestFinished(): void {
    let excess = [...this.#replies.values()].filter((record) => record.state !== "running").length;
    excess -= FINISHED_REPLIES_KEPT;
    for (const [replyId, record] of this.#replies) {
      if (excess <= 0) break;
      if (record.state === "running") continue;
      this.#replies.delete(replyId);
      excess -= 1;
    }
  }

  /** One write at a time (they share a temporary file), each with everything recorded before it. */
  #write(): Promise<void> {
    const write = this.#writes.then(() =>
      writeFileDurably(
        this.#path,
        JSON.stringify({ version: 1, replies: Object.fromEntries(this.#replies) }),
      ),
    );
    this.#writes = write.catch(() => undefined);
    return write;
  }
}

/** A reply running since `now` (also the start of one that ends before it ever ran). */
function running(eventId: string, now: Date): ReplyRecord {
  return {
    eventId,
    state: "running",
    reason: null,
    isPlaintextReason: false,
    startedAt: now.toISOString(),
    finishedAt: null,
  };
}

function finished(
  record: ReplyRecord,
  state: "delivered" | "failed",
  reason: string | null,
  now: Date,
): ReplyRecord {
  return { ...record, state, reason, isPlaintextReason: false, finishedAt: now.toISOString() };
}

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
