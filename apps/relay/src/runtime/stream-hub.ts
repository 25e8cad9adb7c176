import type { Clock } from "../clock.js";
import type { DeviceRecord, StreamEntry } from "../store/store.js";
import { SseConnection } from "./sse-connection.js";
import { deviceRemovedFrame } from "./sse-frames.js";

/**
 * The SSE streams open on this relay process, by account and by device. Entries are published in seq order right
 * after the store commits them. (Several relay processes would add a pub/sub between stores and hubs.)
 */
export class StreamHub {
  readonly #byAccount = new Map<string, Set<SseConnection>>();
  readonly #byDevice = new Map<string, Set<SseConnection>>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Registers a stream; live entries are held back until its `replay`. */
  open(device: DeviceRecord): SseConnection {
    const connection = new SseConnection(device, this.#clock, (closed) => this.#forget(closed));
    addTo(this.#byAccount, device.accountId, connection);
    addTo(this.#byDevice, device.id, connection);
    return connection;
  }

  publish(entries: readonly StreamEntry[]): void {
    for (const entry of entries) {
      for (const connection of this.#byAccount.get(entry.accountId) ?? []) connection.deliver(entry);
    }
  }

  isOnline(deviceId: string): boolean {
    return (this.#byDevice.get(deviceId)?.size ?? 0) > 0;
  }

  get connectionCount(): number {
    let count = 0;
    for (const connections of this.#byAccount.values()) count += connections.size;
    return count;
  }

  /** Tells a removed device's streams why, then closes them. */
  closeDevice(deviceId: string): void {
    for (const connection of [...(this.#byDevice.get(deviceId) ?? [])]) {
      connection.write(deviceRemovedFrame(deviceId));
      connection.close();
    }
  }

  /**
   * Heartbeat to every stream; closes streams past their maximum duration (clients resume by seq) and streams
   * whose client stopped reading.
   */
  tick(options: { maxDurationMs: number; stallMs: number }): void {
    const now = this.#clock.now();
    for (const connections of [...this.#byAccount.values()]) {
      for (const connection of [...connections]) {
        if (
          now - connection.openedAt >= options.maxDurationMs ||
          connection.isStalled(now, options.stallMs)
        ) {
          connection.close();
        } else {
          connection.heartbeat();
        }
      }
    }
  }

  closeAll(): void {
    for (const connections of [...this.#byAccount.values()]) {
      for (const connection of [...connections]) connection.close();
    }
  }

  #forget(connection: SseConnection): void {
    removeFrom(this.#byAccount, connection.device.accountId, connection);
    removeFrom(this.#byDevice, connection.device.id, connection);
  }
}

function addTo(map: Map<string, Set<SseConnection>>, key: string, connection: SseConnection): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(connection);
}

function removeFrom(map: Map<string, Set<SseConnection>>, key: string, connection: SseConnection): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(connection);
  if (set.size === 0) map.delete(key);
}
