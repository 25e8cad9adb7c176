import { createHash } from "node:crypto";

const EVENT_ID_PREFIX = "evt_";
/** 128 bits of SHA-256, as for agent turns. */
const EVENT_ID_HEX_CHARS = 32;

/**
 * The event id of a tracker task's report: derived from the task id alone, so a restart, a reconnect's
 * catch-up or a second watcher cannot make a second report of the same task (the outbox dedupes by id).
 */
export function trackerEventId(taskId: string): string {
  const digest = createHash("sha256").update(`tracker\n${taskId}`, "utf8").digest("hex");
  return `${EVENT_ID_PREFIX}${digest.slice(0, EVENT_ID_HEX_CHARS)}`;
}
