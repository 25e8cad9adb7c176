import type { Clock } from "../clock.js";
import type { DeviceRecord, StreamEntry } from "../store/store.js";
import { entryFrame, HEARTBEAT_FRAME, syncedFrame } from "./sse-frames.js";
import type { SseSink } from "./sse-sinks.js";

/**
 * Bytes a live stream may hold for a client that does not read; past this it is dropped and the client resumes with
 * `Last-Event-ID` (what it missed stays in the store). Above the largest event frame (a 1.5 MiB report), so one big
 * call never drops a client that reads. A backlog holds less: one page (`STREAM_PAGE_MAX_BYTES`) until its client
 * takes it, and it goes live only once its client has taken what was written.
 */
export const SSE_PENDING_MAX_BYTES = 2 * 1024 * 1024;

/** Bytes waiting unread before a stream counts as backed up (then its client must take some within the stall limit). */
export const SSE_STALL_MIN_BYTES = 64 * 1024;

/** Why a stream ended: the client left or the relay ended it (`closed`), or it was dropped for not reading. */
export type SseCloseReason = "closed" | "slow-reader";

/**
 * One device's SSE stream. Its backlog is written a page at a time (`sendBacklog`), and live entries published
 * meanwhile are not held: the hub reads them from the store after the backlog, then the stream goes live, with any
 * seq already sent dropped, so nothing is lost or doubled between backlog and live and no backlog sits in memory.
 * Bytes written before the stream has its sink (the `retry:` hint, written before the response starts) wait for it.
 */
export class SseConnection {
  readonly device: DeviceRecord;
  readonly openedAt: number;
  #sink: SseSink | null = null;
  #early: Uint8Array[] | null = [];
  #isLive = false;
  #isFleetLive = false;
  #lastSeq = 0;
  #lastPending = 0;
  #lastDrainAt: number;
  #isClosed = false;
  readonly #pendingMaxBytes: number;
  readonly #onClose: (connection: SseConnection, reason: SseCloseReason) => void;

  constructor(
    device: DeviceRecord,
    clock: Clock,
    onClose: (connection: SseConnection, reason: SseCloseReason) => void,
    pendingMaxBytes: number = SSE_PENDING_MAX_BYTES,
  ) {
    this.device = device;
    this.openedAt = clock.now();
    this.#lastDrainAt = this.openedAt;
    this.#onClose = onClose;
    this.#pendingMaxBytes = pendingMaxBytes;
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** Bytes written to this stream that its client has not taken yet. */
  get pendingBytes(): number {
    return this.#sink?.pendingBytes ?? 0;
  }

  /** Starts writing to `sink`, first what was written before it came; the sink reports its end via `finish`. */
  attach(sink: SseSink): void {
    if (this.#isClosed) {
      sink.end();
      return;
    }
    this.#sink = sink;
    for (const bytes of this.#early ?? []) sink.write(bytes);
    this.#early = null;
  }

  /** The last seq this stream has sent (or passed over, up to the `synced` marker). */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /**
   * One page of the backlog, in seq order, any seq already sent dropped; `throughSeq`: the seq the page reaches,
   * so the next one reads after it even when its last entries were left out (an erased call).
   */
  sendBacklog(entries: readonly StreamEntry[], throughSeq = 0): void {
    for (const entry of entries) this.#send(entry);
    this.#lastSeq = Math.max(this.#lastSeq, throughSeq);
  }

  /** The backlog is complete up to `headSeq`: the `synced` marker. */
  sendSynced(headSeq: number): void {
    this.#write(syncedFrame(headSeq));
    this.#lastSeq = Math.max(this.#lastSeq, headSeq);
  }

  /** From now on live entries are written as they come (until now the hub read them from the store). */
  goLive(): void {
    this.#isLive = true;
  }

  /**
   * From now on fleet states are written as they come; the hub then reads the current ones for it. Set before that
   * read, so a state stored meanwhile is never missed (at worst the client gets one twice, or an older one after it,
   * which it drops by the state's own version).
   */
  goFleetLive(): void {
    this.#isFleetLive = true;
  }

  /** A fleet state's frame, once the stream takes them; a client that leaves more than the bound unread is dropped. */
  deliverFleet(frame: Uint8Array): void {
    if (this.#isClosed || !this.#isFleetLive) return;
    this.#write(frame);
    this.#dropIfBackedUp();
  }

  /** Resolves once the client has taken what was written (at once without a sink yet, or once it is closed). */
  drained(): Promise<void> {
    return this.#sink && !this.#isClosed ? this.#sink.drained() : Promise.resolve();
  }

  /**
   * Live entries, in seq order; `frames` is their frames as one buffer, built once for every stream of the
   * account. A client that leaves more than the bound unread is dropped. Before the stream is live they are left
   * for the store read that ends its backlog.
   */
  deliver(entries: readonly StreamEntry[], frames: () => Uint8Array): void {
    if (this.#isClosed || entries.length === 0 || !this.#isLive) return;
    const first = entries[0] as StreamEntry;
    if (first.seq > this.#lastSeq) {
      this.#lastSeq = (entries[entries.length - 1] as StreamEntry).seq;
      this.#write(frames());
    } else {
      for (const entry of entries) this.#send(entry);
    }
    this.#dropIfBackedUp();
  }

  write(bytes: Uint8Array): void {
    this.#write(bytes);
  }

  heartbeat(): void {
    this.#write(HEARTBEAT_FRAME);
  }

  /**
   * True when at least `SSE_STALL_MIN_BYTES` have waited unread, without the client taking any, for longer than
   * `stallMs`: the client stopped reading.
   */
  isStalled(now: number, stallMs: number): boolean {
    const pending = this.pendingBytes;
    if (pending < SSE_STALL_MIN_BYTES || pending < this.#lastPending) this.#lastDrainAt = now;
    this.#lastPending = pending;
    return now - this.#lastDrainAt > stallMs;
  }

  /** Ends the stream after what was written. */
  close(): void {
    if (this.#isClosed) return;
    this.#sink?.end();
    this.finish();
  }

  /** The stream has ended (the sink calls this when its client has gone). */
  finish(reason: SseCloseReason = "closed"): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#early = null;
    this.#onClose(this, reason);
  }

  #dropIfBackedUp(): void {
    if (this.pendingBytes > this.#pendingMaxBytes) this.drop();
  }

  /** Drops the stream at once, unsent bytes and all, as a slow reader: its client resumes by `Last-Event-ID`. */
  drop(): void {
    if (this.#isClosed) return;
    this.finish("slow-reader");
    this.#sink?.destroy();
  }

  #send(entry: StreamEntry): void {
    if (entry.seq <= this.#lastSeq) return;
    this.#lastSeq = entry.seq;
    this.#write(entryFrame(entry));
  }

  #write(bytes: Uint8Array): void {
    if (this.#isClosed) return;
    if (!this.#sink) {
      this.#early?.push(bytes);
      return;
    }
    this.#sink.write(bytes);
  }
}
