import { createHash } from "node:crypto";
import type { AcceptResult } from "@ringback/outbox";
import type { Report } from "@ringback/protocol";
import type { Logger } from "../logger.js";

/** How far a hook report's time may lie outside the task's run and still be taken for the same turn. */
const HOOK_TURN_MATCH_SLACK_MS = 2 * 60_000;
/** Hook reports and tracker turns remembered for matching (memory only; matches happen within minutes). */
const HOOK_TURNS_KEPT = 500;

/** A finished tracker task as the hook would have seen it: the agent's final words and when it ran. */
export interface TrackerTurn {
  taskId: string;
  /** The task's `result.output` and its report comment; either may be what the hook read. */
  texts: string[];
  startedAtMs: number | null;
  completedAtMs: number;
}

interface HookReport {
  eventId: string;
  textKey: string;
  atMs: number;
}

interface RememberedTurn {
  taskId: string;
  textKeys: Set<string>;
  fromMs: number;
  toMs: number;
}

export interface ReportQueue {
  enqueue(report: Report): Promise<AcceptResult>;
}

/**
 * Dedupes a tracker task's turn that the Stop hook reported too. The hook skips turns whose environment
 * names a tracker task, but Codex's full-screen UI runs every Stop hook with the environment of the UI
 * that started its shared app-server, so such a turn can reach `POST /report` as an ordinary Codex turn.
 * Nothing in the hook's payload names the task; the daemon matches on what it can see: the same final
 * words (the task's `result.output` or its report comment) within the task's run time.
 * - Hook report first (the usual order: the hook runs before the tracker marks the task finished): the
 *   tracker report is not queued; the call already on its way is the one that rings.
 * - Tracker task first: the hook report is answered as a duplicate and not queued.
 * A turn whose words differ from the task's output is not recognised and may ring twice.
 */
export class HookTurns {
  readonly #log: Logger;
  #hookReports: HookReport[] = [];
  #trackerTurns: RememberedTurn[] = [];

  constructor(log: Logger) {
    this.#log = log;
  }

  /** The report queue for `POST /report`: hook reports pass through this check on their way to the outbox. */
  observe(queue: ReportQueue): ReportQueue {
    return {
      enqueue: async (report) => {
        if (report.source !== "tracker") {
          const taskId = this.#trackerTaskOf(report);
          if (taskId) {
            this.#log(
              `report ${report.eventId} is the turn of tracker task ${taskId}, already reported; skipped`,
            );
            return "duplicate";
          }
          this.#rememberHookReport(report);
        }
        return queue.enqueue(report);
      },
    };
  }

  /** The event id of a hook report of this tracker turn, if one was queued. */
  hookReportOf(turn: TrackerTurn): string | undefined {
    const keys = textKeys(turn.texts);
    const fromMs = (turn.startedAtMs ?? turn.completedAtMs) - HOOK_TURN_MATCH_SLACK_MS;
    const toMs = turn.completedAtMs + HOOK_TURN_MATCH_SLACK_MS;
    return this.#hookReports.find(
      (report) => keys.has(report.textKey) && report.atMs >= fromMs && report.atMs <= toMs,
    )?.eventId;
  }

  rememberTrackerTurn(turn: TrackerTurn): void {
    const keys = textKeys(turn.texts);
    if (keys.size === 0) return;
    this.#trackerTurns = keepNewest([
      ...this.#trackerTurns,
      {
        taskId: turn.taskId,
        textKeys: keys,
        fromMs: (turn.startedAtMs ?? turn.completedAtMs) - HOOK_TURN_MATCH_SLACK_MS,
        toMs: turn.completedAtMs + HOOK_TURN_MATCH_SLACK_MS,
      },
    ]);
  }

  #trackerTaskOf(report: Report): string | undefined {
    const key = textKey(report.text);
    const atMs = Date.parse(report.occurredAt);
    return this.#trackerTurns.find(
      (turn) => turn.textKeys.has(key) && atMs >= turn.fromMs && atMs <= turn.toMs,
    )?.taskId;
  }

  #rememberHookReport(report: Report): void {
    if (report.text.trim() === "") return;
    this.#hookReports = keepNewest([
      ...this.#hookReports,
      { eventId: report.eventId, textKey: textKey(report.text), atMs: Date.parse(report.occurredAt) },
    ]);
  }
}

function keepNewest<T>(items: T[]): T[] {
  return items.length > HOOK_TURNS_KEPT ? items.slice(items.length - HOOK_TURNS_KEPT) : items;
}

/** A digest, not the words: the report text need not sit in memory twice. */
function textKey(text: string): string {
  return createHash("sha256").update(text.trim(), "utf8").digest("base64url");
}

function textKeys(texts: readonly string[]): Set<string> {
  return new Set(texts.filter((text) => text.trim() !== "").map(textKey));
}
