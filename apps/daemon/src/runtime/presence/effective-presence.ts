import type { Presence } from "@ringback/protocol";
import { awayModeAt, lastScheduleChange } from "./away-times.js";
import type { StoredPresence } from "./stored-presence.js";

/**
 * The latest change wins: the switch set by hand (phone or `ringback away`), or a ring mode's away time starting or
 * ending after it, as if the switch had been flipped then. A schedule just received is no change of its own: it
 * counts from its last start or end, so a switch set since then still holds.
 */
export function effectivePresence(stored: StoredPresence, now: Date): Presence {
  const { schedule } = stored;
  const bySwitch: Presence = {
    away: stored.away,
    changedAt: stored.changedAt,
    changedBy: stored.changedBy,
    schedule,
  };
  if (!schedule) return bySwitch;
  const switchedAt = stored.changedAt ? new Date(stored.changedAt) : null;
  const change = lastScheduleChange(schedule, now, switchedAt);
  // Never switched by hand and the away times never start or end (every day, all day): they alone decide.
  if (!change && switchedAt) return bySwitch;
  const modeNow = awayModeAt(schedule, now);
  const modeName = modeNow ?? change?.modeName ?? schedule.periods[0]?.modeName ?? "";
  return {
    away: modeNow !== null,
    changedAt: change ? change.at.toISOString() : null,
    changedBy: `the ring mode "${modeName}"`.slice(0, 200),
    changedByMode: modeName,
    schedule,
  };
}
