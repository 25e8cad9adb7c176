/** The tracker's `created_at`/`updated_at`/`completed_at` are RFC3339 with second precision. */
export function secondsTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

let lastActivityMs = 0;

/**
 * `last_activity_at` is RFC3339Nano on the tracker; here it is milliseconds, kept strictly increasing so
 * "latest activity first" is deterministic even when a test does two things in the same millisecond.
 */
export function activityTimestamp(): string {
  lastActivityMs = Math.max(Date.now(), lastActivityMs + 1);
  return new Date(lastActivityMs).toISOString();
}
