import { statfs } from "node:fs/promises";
import type { RelayLog } from "../log.js";
import { RetryLaterError } from "./retry-later.js";

/** How soon a write refused for disk space may be tried again. */
const DISK_RETRY_AFTER_MS = 60_000;

/** Free bytes on the disk that holds `dir` (for this process: `statfs`'s blocks available to it). */
export function freeBytesOf(dir: string): () => Promise<number> {
  return async () => {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize;
  };
}

export interface DiskReading {
  readonly freeBytes: number;
  readonly isLow: boolean;
}

/**
 * The data directory's free space, read now and then (`refresh`, on the relay's timer): below `minFreeBytes` the
 * relay refuses writes that store data (a report, a reply, a new account or device, a push subscription) with 507
 * `storage_full` and `Retry-After`, so the database never fills the disk midway through a write; writes that erase
 * (a call ending) go on. Without a reader (PostgreSQL: the database's disk is not this machine's) nothing is refused.
 */
export class DiskSpace {
  readonly #read: (() => Promise<number>) | null;
  readonly #minFreeBytes: number;
  readonly #log: RelayLog;
  #reading: DiskReading | null = null;

  constructor(read: (() => Promise<number>) | null, minFreeBytes: number, log: RelayLog) {
    this.#read = read;
    this.#minFreeBytes = minFreeBytes;
    this.#log = log;
  }

  /** The last reading; null before the first, or without a reader. */
  get reading(): DiskReading | null {
    return this.#reading;
  }

  async refresh(): Promise<void> {
    if (this.#read === null) return;
    const freeBytes = await this.#read();
    const isLow = freeBytes < this.#minFreeBytes;
    if (isLow !== (this.#reading?.isLow ?? false)) {
      this.#log.line(
        isLow
          ? `disk space low: ${freeBytes} bytes free (under ${this.#minFreeBytes}): refusing writes`
          : `disk space back: ${freeBytes} bytes free: taking writes again`,
      );
    }
    this.#reading = { freeBytes, isLow };
  }

  /** Throws 507 `storage_full` (with `Retry-After`) while the disk is low. */
  assertRoom(): void {
    if (this.#reading?.isLow) {
      throw new RetryLaterError(
        "storage_full",
        DISK_RETRY_AFTER_MS,
        "The relay's disk is nearly full: nothing new is stored until its operator frees space; try again later.",
      );
    }
  }
}
