import { join } from "node:path";
import { LocalAgentSource } from "@ringback/protocol";
import { z } from "zod";
import type { Logger } from "../logger.js";
import { BoundedRecordFile } from "./bounded-record-file.js";

/** `{data_dir}/sessions.json`: where each agent session ran, to resume it later with the user's reply. */
export const SESSIONS_FILE = "sessions.json";
/** Sessions remembered, most recently reported first kept; a reply to an older one cannot resume it. */
const SESSIONS_KEPT = 1000;

export const SessionRecord = z.object({
  cwd: z.string(),
  source: LocalAgentSource,
  updatedAt: z.string(),
});
export type SessionRecord = z.infer<typeof SessionRecord>;

/** sessionId -> {cwd, source}, kept in `sessions.json`. */
export class SessionsFile {
  readonly #file: BoundedRecordFile<SessionRecord>;

  private constructor(file: BoundedRecordFile<SessionRecord>) {
    this.#file = file;
  }

  static async load(dataDir: string, log: Logger): Promise<SessionsFile> {
    const file = await BoundedRecordFile.load({
      path: join(dataDir, SESSIONS_FILE),
      field: "sessions",
      record: SessionRecord,
      kept: SESSIONS_KEPT,
      log,
      unreadableMessage: "sessions reported before now cannot be resumed by a reply",
    });
    return new SessionsFile(file);
  }

  get(sessionId: string): SessionRecord | undefined {
    return this.#file.get(sessionId);
  }

  remember(sessionId: string, record: SessionRecord): void {
    const known = this.#file.get(sessionId);
    if (known?.cwd === record.cwd && known.source === record.source) return;
    this.#file.set(sessionId, record);
  }

  /** Waits until the file holds everything remembered so far. */
  flush(): Promise<void> {
    return this.#file.flush();
  }
}
