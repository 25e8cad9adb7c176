import { join } from "node:path";
import { LocalAgentSource, type Report } from "@ringback/protocol";
import { z } from "zod";
import { BoundedRecordFile } from "../files/bounded-record-file.js";
import type { Logger } from "../logger.js";

/** `{data_dir}/event-sessions.json`: which agent session each reported event came from, for replies. */
const EVENT_SESSIONS_FILE = "event-sessions.json";
/** Events remembered, newest kept; a reply to an older call cannot find its session. */
const EVENT_SESSIONS_KEPT = 1000;

export const EventSession = z.object({
  source: LocalAgentSource,
  sessionId: z.string(),
  cwd: z.string(),
});
export type EventSession = z.infer<typeof EventSession>;

/**
 * eventId -> {source, sessionId, cwd} of every local agent report: the outbox forgets a report once it is sent,
 * and a reply names only its event.
 */
export class EventSessions {
  readonly #file: BoundedRecordFile<EventSession>;

  private constructor(file: BoundedRecordFile<EventSession>) {
    this.#file = file;
  }

  static async load(dataDir: string, log: Logger): Promise<EventSessions> {
    const file = await BoundedRecordFile.load({
      path: join(dataDir, EVENT_SESSIONS_FILE),
      field: "events",
      record: EventSession,
      kept: EVENT_SESSIONS_KEPT,
      log,
      unreadableMessage: "replies to calls reported before now cannot resume their agent",
    });
    return new EventSessions(file);
  }

  get(eventId: string): Readonly<EventSession> | undefined {
    return this.#file.get(eventId);
  }

  /** Remembers a local agent's report (tracker reports have no session to resume). */
  remember(report: Report): void {
    const source = LocalAgentSource.safeParse(report.source);
    if (!source.success || !report.sessionId || !report.cwd) return;
    if (this.#file.has(report.eventId)) return;
    this.#file.set(report.eventId, { source: source.data, sessionId: report.sessionId, cwd: report.cwd });
  }

  /** Waits until the file holds everything remembered so far. */
  flush(): Promise<void> {
    return this.#file.flush();
  }
}
