import { join } from "node:path";
import { writeFileDurably } from "@ringback/outbox";
import { LocalAgentSource } from "@ringback/protocol";
import { z } from "zod";
import type { Logger } from "./logger.js";
import { readTextIfExists, tightenFileMode } from "./private-file.js";

/** `{data_dir}/sessions.json`: where each agent session ran, to resume it later with the user's reply. */
export const SESSIONS_FILE = "sessions.json";
/** Sessions remembered, most recently reported first kept; a reply to an older one cannot resume it. */
export const SESSIONS_KEPT = 1000;

export const SessionRecord = z.object({
  cwd: z.string(),
  source: LocalAgentSource,
  updatedAt: z.string(),
});
export type SessionRecord = z.infer<typeof SessionRecord>;

const SessionsFileContent = z.object({
  version: z.literal(1),
  sessions: z.record(z.string(), SessionRecord),
});

/**
 * sessionId -> {cwd, source}. Remembering is immediate in memory; the file follows (one write at a time,
 * the latest state each time), so a burst of reports costs a few writes, not one each.
 */
export class SessionsFile {
  readonly #path: string;
  readonly #log: Logger;
  readonly #sessions: Map<string, SessionRecord>;
  #isDirty = false;
  #writing: Promise<void> | null = null;

  private constructor(path: string, sessions: Map<string, SessionRecord>, log: Logger) {
    this.#path = path;
    this.#sessions = sessions;
    this.#log = log;
  }

  /** Reads the file; an unreadable one is set aside in the log and started afresh (it holds no report). */
  static async load(dataDir: string, log: Logger): Promise<SessionsFile> {
    const path = join(dataDir, SESSIONS_FILE);
    const text = await readTextIfExists(path);
    const sessions = new Map<string, SessionRecord>();
    if (text !== null) {
      await tightenFileMode(path, log);
      const parsed = SessionsFileContent.safeParse(safeJsonParse(text));
      if (parsed.success)
        for (const [id, record] of Object.entries(parsed.data.sessions)) sessions.set(id, record);
      else log(`${path} could not be read; sessions reported before now cannot be resumed by a reply`);
    }
    return new SessionsFile(path, sessions, log);
  }

  get(sessionId: string): SessionRecord | undefined {
    return this.#sessions.get(sessionId);
  }

  remember(sessionId: string, record: SessionRecord): void {
    const known = this.#sessions.get(sessionId);
    if (known?.cwd === record.cwd && known.source === record.source) return;
    this.#sessions.delete(sessionId);
    this.#sessions.set(sessionId, record);
    for (const oldest of this.#sessions.keys()) {
      if (this.#sessions.size <= SESSIONS_KEPT) break;
      this.#sessions.delete(oldest);
    }
    this.#isDirty = true;
    this.#writing ??= this.#writeWhileDirty();
  }

  /** Waits until the file holds everything remembered so far. */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  async #writeWhileDirty(): Promise<void> {
    try {
      while (this.#isDirty) {
        this.#isDirty = false;
        const content = { version: 1, sessions: Object.fromEntries(this.#sessions) };
        await writeFileDurably(this.#path, JSON.stringify(content));
      }
    } catch (error) {
      this.#log(`could not write ${this.#path}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.#writing = null;
    }
  }
}

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
