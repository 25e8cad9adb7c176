import type { Pairing } from "@ringback/client";

/**
 * A device that has just joined, with the time it joined, as the web app records it: calls raised before then (older
 * reports, asks already decided) are missed there, not rung.
 */
export function joinedNow(pairing: Pairing, now: Date = new Date()): Pairing {
  return { ...pairing, identity: { ...pairing.identity, joinedAt: now.toISOString() } };
}
