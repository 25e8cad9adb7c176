import type { AwayPeriod, Presence } from "@ringback/protocol";

const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** One line: the state, what it means for an agent's permission ask, and who set it when. */
export function describePresence(presence: Presence): string {
  const state = presence.away
    ? "away: an agent asking permission rings your phones"
    : "present: an agent asking permission shows its own dialog here";
  const by = presence.changedBy ? ` by ${presence.changedBy}` : "";
  if (!presence.changedAt) return by ? `${state} (set${by})` : `${state} (the default)`;
  return `${state} (set${by} at ${new Date(presence.changedAt).toLocaleString()})`;
}

/** The ring modes' away times this computer keeps, one line each; empty when none. */
export function describeAwayTimes(presence: Presence): string[] {
  const schedule = presence.schedule;
  if (!schedule) return [];
  const heading = `away times from the ring modes (sent by ${schedule.setBy} at ${new Date(schedule.setAt).toLocaleString()}, read in ${schedule.timeZone}):`;
  return [heading, ...schedule.periods.map((period) => `  "${period.modeName}" ${describePeriod(period)}`)];
}

function describePeriod(period: AwayPeriod): string {
  const days = period.days.length === 7 ? "every day" : period.days.map((day) => DAY_NAMES[day]).join(" ");
  return `${days} ${period.ranges.map((range) => `${range.start}-${range.end}`).join(", ")}`;
}
