import { rename } from "node:fs/promises";
import { join } from "node:path";
import { writeFileDurably } from "@ringback/outbox";
import {
  PERMISSION_WAIT_MS,
  REPLY_EXPIRY_MS,
  REQUEST_CLOCK_WINDOW_MS,
  type RequestStamp,
} from "@ringback/protocol";
import { z } from "zod";
import { readTextIfExists, tightenFileMode } from "./files/private-file.js";
import type { Logger } from "./logger.js";

/** `{data_dir}/seen-requests.json`: the nonces of the sealed requests this computer has taken, within their window. */
export const SEEN_REQUESTS_FILE = "seen-requests.json";

/** How old a kind of sealed request may be, and how far ahead of this computer's clock, when it arrives. */
interface ReplayWindow {
  readonly maxAgeMs: number;
  readonly maxAheadMs: number;
}

/**
 * The window of each kind of sealed request a device sends this computer. A request outside it is refused; inside
 * it, its nonce is remembered until it leaves the window, so a copy is refused whenever it comes.
 */
const REPLAY_WINDOWS = {
  /** Relayed at once or not at all (the relay waits seconds for the answer): the clock window either way. */
  "settings-request": { maxAgeMs: REQUEST_CLOCK_WINDOW_MS, maxAheadMs: REQUEST_CLOCK_WINDOW_MS },
  /** The relay keeps a reply for a computer that is off for up to REPLY_EXPIRY_MS. */
  reply: { maxAgeMs: REPLY_EXPIRY_MS + REQUEST_CLOCK_WINDOW_MS, maxAheadMs: REQUEST_CLOCK_WINDOW_MS },
  /** A decision is only taken while its hook waits, at most PERMISSION_WAIT_MS after the ask. */
  "permission-decision": {
    maxAgeMs: PERMISSION_WAIT_MS + REQUEST_CLOCK_WINDOW_MS,
    maxAheadMs: REQUEST_CLOCK_WINDOW_MS,
  },
} as const satisfies Record<string, ReplayWindow>;
export type SealedRequestKind = keyof typeof REPLAY_WINDOWS;

/** Nonces remembered at most: a request that would need more is refused (`full`), never one forgotten early. */
const SEEN_NONCES_MAX = 100_000;

/** What becomes of a sealed request: taken (its nonce now remembered), or refused and why. */
export type Admission = "accepted" | "stale" | "future" | "replayed" | "full";

const SeenRequestsContent = z.object({
  version: z.literal(1),
  /** Requests sealed before this time (ms since the epoch) are refused: set when an unreadable file was replaced. */
  notBefore: z.number(),
  /** nonce -> until when it is remembered (ms since the epoch): the end of its request's window. */
  seen: z.record(z.string(), z.number()),
});

/**
 * One rule for every sealed request a device addresses to this computer (relayed settings requests and dispatches,
 * replies, permission decisions): its time must be within its kind's window of this computer's clock, and
 * its nonce must be new. The nonce is on disk (mode 600, fsync'ed) before `admit` says `accepted`, so a copy is
 * refused after a restart or a crash too; nonces are forgotten once their request is too old to be taken anyway.
 */
export class ReplayGuard {
  readonly #path: string;
  readonly #now: () => Date;
  readonly #seen: Map<string, number>;
  readonly #notBefore: number;
  readonly #maxNonces: number;
  /** The write in progress (or the last one), and the one waiting to start: callers meanwhile share it. */
  #current: Promise<unknown> = Promise.resolve();
  #next: Promise<void> | null = null;

  private constructor(
    path: string,
    seen: Map<string, number>,
    notBefore: number,
    options: { now: () => Date; maxNonces: number },
  ) {
    this.#path = path;
    this.#seen = seen;
    this.#notBefore = notBefore;
    this.#now = options.now;
    this.#maxNonces = options.maxNonces;
  }

  /**
   * Reads the remembered nonces. An unreadable file is moved to `seen-requests.json.unreadable` and replaced by one
   * that refuses every request sealed before now plus the clock window: whatever it remembered may come again, and
   * none of it can be told from a new request, so nothing from before is taken.
   */
  static async load(
    dataDir: string,
    log: Logger,
    options: { now?: () => Date; maxNonces?: number } = {},
  ): Promise<ReplayGuard> {
    const now = options.now ?? (() => new Date());
    const settings = { now, maxNonces: options.maxNonces ?? SEEN_NONCES_MAX };
    const path = join(dataDir, SEEN_REQUESTS_FILE);
    const text = await readTextIfExists(path);
    if (text === null) return new ReplayGuard(path, new Map(), 0, settings);
    await tightenFileMode(path, log);
    const parsed = SeenRequestsContent.safeParse(safeJsonParse(text));
    if (parsed.success) {
      const { notBefore, seen } = parsed.data;
      return new ReplayGuard(path, new Map(Object.entries(seen)), notBefore, settings);
    }
    await rename(path, `${path}.unreadable`);
    const notBefore = now().getTime() + REQUEST_CLOCK_WINDOW_MS;
    const guard = new ReplayGuard(path, new Map(), notBefore, settings);
    await guard.#write();
    log(
      `${path} could not be read (moved to ${SEEN_REQUESTS_FILE}.unreadable): sealed requests and replies sent ` +
        `before ${new Date(notBefore).toISOString()} are refused, since they could be replays`,
    );
    return guard;
  }

  /**
   * Takes a request of `kind` or refuses it: `future` or `stale` outside its window, `replayed` when its nonce was
   * taken before, `full` when too many are remembered. Resolves `accepted` once its nonce is on disk; a write that
   * fails rejects and the request stays untaken.
   */
  async admit(kind: SealedRequestKind, stamp: RequestStamp): Promise<Admission> {
    const now = this.#now().getTime();
    const sentAt = Date.parse(stamp.sentAt);
    const window = REPLAY_WINDOWS[kind];
    if (!Number.isFinite(sentAt) || sentAt > now + window.maxAheadMs) return "future";
    if (sentAt < now - window.maxAgeMs || sentAt < this.#notBefore) return "stale";
    this.#forgetExpired(now);
    if (this.#seen.has(stamp.nonce)) return "replayed";
    if (this.#seen.size >= this.#maxNonces) return "full";
    this.#seen.set(stamp.nonce, sentAt + window.maxAgeMs);
    try {
      await this.#write();
    } catch (error) {
      this.#seen.delete(stamp.nonce);
      throw error;
    }
    return "accepted";
  }

  #forgetExpired(now: number): void {
    for (const [nonce, until] of this.#seen) if (until < now) this.#seen.delete(nonce);
  }

  /** One write at a time, each with everything admitted before it starts; callers while one waits share it. */
  #write(): Promise<void> {
    if (this.#next) return this.#next;
    const next = this.#current.then(() => {
      this.#next = null;
      const content = { version: 1, notBefore: this.#notBefore, seen: Object.fromEntries(this.#seen) };
      return writeFileDurably(this.#path, JSON.stringify(content));
    });
    this.#next = next;
    this.#current = next.catch(() => undefined);
    return next;
  }
}

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
