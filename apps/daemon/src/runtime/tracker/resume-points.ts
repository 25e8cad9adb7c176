import { join } from "node:path";
import { z } from "zod";
import { BoundedRecordFile } from "../files/bounded-record-file.js";
import type { Logger } from "../logger.js";

/** `{data_dir}/tracker-resume.json`: per watched workspace, where its watcher's catch-up resumes after a restart. */
export const RESUME_POINTS_FILE = "tracker-resume.json";
/** Workspaces remembered; more than anyone watches. */
const RESUME_POINTS_KEPT = 100;
/**
 * The longest a start looks back for finished tasks and moves to blocked: a night or a weekend day switched off rings
 * what the agents did meanwhile; anything older the user has seen in the tracker by now, and a start would ring it all
 * at once. It also keeps the catch-up well within what the outbox and the rung-questions memory remember.
 */
export const RESUME_LOOK_BACK_MAX_MS = 24 * 60 * 60_000;
/**
 * How often the watchers' resume points are written while the daemon runs (and once more at a clean stop): a crash
 * makes the next start look back at most this much further, which the outbox's dedupe makes harmless.
 */
export const RESUME_POINTS_SAVE_INTERVAL_MS = 60_000;

/**
 * Where each watched workspace's realtime watcher would resume (tracker-client `resumeSince()`), kept on disk so that
 * a start catches up on what finished, or was moved to blocked, while the daemon was stopped. No file (the first
 * start) or an unreadable one: the watchers start from now, as before this file existed.
 */
export class ResumePoints {
  readonly #file: BoundedRecordFile<string> | null;
  readonly #log: Logger;
  readonly #now: () => Date;

  private constructor(file: BoundedRecordFile<string> | null, log: Logger, now: () => Date) {
    this.#file = file;
    this.#log = log;
    this.#now = now;
  }

  static async load(dataDir: string, log: Logger, now: () => Date): Promise<ResumePoints> {
    const path = join(dataDir, RESUME_POINTS_FILE);
    try {
      const file = await BoundedRecordFile.load({
        path,
        field: "resumeSince",
        record: z.iso.datetime(),
        kept: RESUME_POINTS_KEPT,
        log,
        unreadableMessage:
          "the tracker catches up only from now on (work done while the daemon was stopped does not ring)",
      });
      return new ResumePoints(file, log, now);
    } catch (error) {
      log(
        `${path} could not be read (${error instanceof Error ? error.message : String(error)}); the tracker catches up only from now on, and where it got to is not kept this run`,
      );
      return new ResumePoints(null, log, now);
    }
  }

  /**
   * The first catch-up's `since` for the workspace's watcher started with the daemon: where the last run got to, at
   * most RESUME_LOOK_BACK_MAX_MS ago. Undefined when nothing is stored: the watcher starts from now.
   */
  startingSince(workspaceId: string): Date | undefined {
    const stored = this.#file?.get(workspaceId);
    if (stored === undefined) return undefined;
    const nowMs = this.#now().getTime();
    const earliestMs = nowMs - RESUME_LOOK_BACK_MAX_MS;
    const storedMs = Date.parse(stored);
    const since = new Date(Math.min(nowMs, Math.max(storedMs, earliestMs)));
    const bounded =
      storedMs < earliestMs ? ` (it got to ${stored}; a start looks back 24 hours at most)` : "";
    this.#log(
      `tracker: workspace ${workspaceId} catches up from ${since.toISOString()}, where the last run got to${bounded}`,
    );
    return since;
  }

  /** Keeps where the workspace's watcher would resume; written at once unless it is unchanged. */
  note(workspaceId: string, resumeSince: Date): void {
    if (!this.#file) return;
    const time = resumeSince.toISOString();
    if (this.#file.get(workspaceId) !== time) this.#file.set(workspaceId, time);
  }

  /** Waits until the file holds every point noted so far. */
  async flush(): Promise<void> {
    await this.#file?.flush();
  }
}
