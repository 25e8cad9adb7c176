import type { Clock } from "../clock.js";
import type { DeviceRecord, StreamEntry, StreamSnapshot } from "../store/store.js";
import { entryFrame, HEARTBEAT_FRAME, syncedFrame } from "./sse-frames.js";

/** Bytes queued for a stream before it counts as backed up (then it must drain within the stall limit). */
export const SSE_QUEUE_HIGH_WATER_BYTES = 64 * 1024;

/**
 * One device's SSE stream. Live entries published while its backlog is read are held back, then sent after the
 * backlog with any seq already sent dropped, so nothing is lost or doubled between backlog and live.
 */
export class SseConnection {
  readonly device: DeviceRecord;
  readonly openedAt: number;
  readonly stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #held: StreamEntry[] | null = [];
  #lastSeq = 0;
  #lastDrainAt: number;
  #isClosed = false;
  readonly #clock: Clock;
  readonly #onClose: (connection: SseConnection) => void;

  constructor(device: DeviceRecord, clock: Clock, onClose: (connection: SseConnection) => void) {
    this.device = device;
    this.#clock = clock;
    this.openedAt = clock.now();
    this.#lastDrainAt = this.openedAt;
    this.#onClose = onClose;
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => {
          this.#lastDrainAt = this.#clock.now();
        },
        cancel: () => this.#finish(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: SSE_QUEUE_HIGH_WATER_BYTES }),
    );
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** Sends the backlog (or the pending calls), the `synced` marker, then whatever was held back meanwhile. */
  replay(snapshot: StreamSnapshot): void {
    for (const entry of snapshot.entries) this.#send(entry);
    this.#write(syncedFrame(snapshot.headSeq));
    this.#lastSeq = Math.max(this.#lastSeq, snapshot.headSeq);
    const held = this.#held ?? [];
    this.#held = null;
    for (const entry of held) this.#send(entry);
  }

  deliver(entry: StreamEntry): void {
    if (this.#isClosed) return;
    if (this.#held) this.#held.push(entry);
    else this.#send(entry);
  }

  write(bytes: Uint8Array): void {
    this.#write(bytes);
  }

  heartbeat(): void {
    this.#write(HEARTBEAT_FRAME);
  }

  /** True when data has waited above the high-water mark for longer than `stallMs`: the client stopped reading. */
  isStalled(now: number, stallMs: number): boolean {
    return (this.#controller.desiredSize ?? 0) <= 0 && now - this.#lastDrainAt > stallMs;
  }

  close(): void {
    if (this.#isClosed) return;
    try {
      this.#controller.close();
    } catch {
      // Already errored or cancelled by the client: nothing left to close.
    }
    this.#finish();
  }

  #send(entry: StreamEntry): void {
    if (entry.seq <= this.#lastSeq) return;
    this.#lastSeq = entry.seq;
    this.#write(entryFrame(entry));
  }

  #write(bytes: Uint8Array): void {
    if (this.#isClosed) return;
    try {
      this.#controller.enqueue(bytes);
    } catch {
      this.#finish();
    }
  }

  #finish(): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#held = null;
    this.#onClose(this);
  }
}
