import type { Presence } from "@ringback/protocol";

/** One line: the state, what it means for an agent's permission ask, and who set it when. */
export function describePresence(presence: Presence): string {
  const state = presence.away
    ? "away: an agent asking permission rings your phones"
    : "present: an agent asking permission shows its own dialog here";
  if (!presence.changedAt) return `${state} (the default)`;
  const by = presence.changedBy ? ` by ${presence.changedBy}` : "";
  return `${state} (set${by} at ${new Date(presence.changedAt).toLocaleString()})`;
}
