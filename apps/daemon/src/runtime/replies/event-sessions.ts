import { join } from "node:path";
import { writeFileDurably } from "@ringback/outbox";
import { LocalAgentSource, type Report } from "@ringback/protocol";
import { z } from "zod";
import type { Logger } from "../logger.js";
import { readTextIfExists, tightenFileMode } from "../private-file.js";

/** `{data_dir}/event-sessions.json`: which agent session each reported event came from, for replies. */
export const EVENT_SESSIONS_FILE = "event-sessions.json";
/** Events remembered, newest kept; a reply to an older call cannot find its session. */
export const EVENT_SESSIONS_KEPT = 1000;

export const EventSession = z.object({
  source: LocalAgentSource,
  sessionId: z.string(),
  cwd: z.string(),
});
export type EventSession = z.infer<typeof EventSession>;

const EventSessionsFileContent = z.object({
  version: z.literal(1),
  events: z.record(z.string(), EventSession),
});

/**
 * eventId -> {source, sessionId, cwd} of every local agent report: the outbox forgets a report once it is sent,
 * and a reply names only its event. Remembering is immediate in memory; the file follows, one write at a time.
 */
export class EventSessions {
  readonly #path: string;
  readonly #log: Logger;
  readonly #events: Map<string, EventSession>;
  #isDirty = false;
  #writing: Promise<void> | null = null;

  private constructor(path: string, events: Map<string, EventSession>, log: Logger) {
    this.#path = path;
    this.#events = events;
    this.#log = log;
  }

  /** Reads the file; an unreadable one is started afresh (replies to the events it held then fail). */
  static async load(dataDir: string, log: Logger): Promise<EventSessions> {
    const path = join(dataDir, EVENT_SESSIONS_FILE);
    const text = await readTextIfExists(path);
    const events = new Map<string, EventSession>();
    if (text !== null) {
      await tightenFileMode(path, log);
      const parsed = EventSessionsFileContent.safeParse(safeJsonParse(text));
      if (parsed.success)
        for (const [id, session] of Object.entries(parsed.data.events)) events.set(id, session);
      else log(`${path} could not be read; replies to calls reported before now cannot resume their agent`);
    }
    return new EventSessions(path, events, log);
  }

  get(eventId: string): Readonly<EventSession> | undefined {
    return this.#events.get(eventId);
  }

  /** Remembers a local agent's report (tracker reports have no session to resume). */
  remember(report: Report): void {
    const source = LocalAgentSource.safeParse(report.source);
    if (!source.success || !report.sessionId || !report.cwd) return;
    if (this.#events.has(report.eventId)) return;
    this.#events.set(report.eventId, { source: source.data, sessionId: report.sessionId, cwd: report.cwd });
    for (const oldest of this.#events.keys()) {
      if (this.#events.size <= EVENT_SESSIONS_KEPT) break;
      this.#events.delete(oldest);
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
        const content = { version: 1, events: Object.fromEntries(this.#events) };
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
