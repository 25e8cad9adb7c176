import { join } from "node:path";
import { z } from "zod";
import { BoundedRecordFile } from "../files/bounded-record-file.js";
import type { Logger } from "../logger.js";

const QUIET_CALLS_FILE = "quiet-calls.json";
/** Quiet calls remembered for the summary: more than a day of agents; the relay forgets older calls anyway. */
const QUIET_CALLS_KEPT = 200;

const QuietCall = z.object({ postedAt: z.string() });

/**
 * The calls this computer posted quiet (a round-up-only or silent project), until the quiet summary finds them
 * answered or gone: `{data_dir}/quiet-calls.json`, private, so a restart keeps what the next summary rings.
 */
export class QuietCalls {
  readonly #file: BoundedRecordFile<z.infer<typeof QuietCall>>;

  private constructor(file: BoundedRecordFile<z.infer<typeof QuietCall>>) {
    this.#file = file;
  }

  static async load(dataDir: string, log: Logger): Promise<QuietCalls> {
    const file = await BoundedRecordFile.load({
      path: join(dataDir, QUIET_CALLS_FILE),
      field: "calls",
      record: QuietCall,
      kept: QUIET_CALLS_KEPT,
      log,
      unreadableMessage: "the quiet calls posted before it will not ring in the next quiet summary",
    });
    return new QuietCalls(file);
  }

  remember(eventId: string, postedAt: Date): void {
    this.#file.set(eventId, { postedAt: postedAt.toISOString() });
  }

  forget(eventId: string): void {
    this.#file.delete(eventId);
  }

  /** Event ids, the newest posted first. */
  newestFirst(): string[] {
    return this.#file.ids().reverse();
  }

  flush(): Promise<void> {
    return this.#file.flush();
  }
}
