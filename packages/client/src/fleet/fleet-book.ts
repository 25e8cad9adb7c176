import type { FleetState } from "@ringback/protocol";

/** The newest fleet state held of each computer of the account, by its relay device id. */
export type FleetBook = Readonly<Record<string, FleetState>>;

export const EMPTY_FLEET_BOOK: FleetBook = {};

/**
 * The book with `state` as the computer's, unless the one held is as new or newer: a state the relay replays after
 * a reconnect, or one that arrives after a later one, must not bring back agents that have moved on. The same book
 * when nothing changed.
 */
export function withFleetState(book: FleetBook, computerId: string, state: FleetState): FleetBook {
  const held = book[computerId];
  if (held && held.version >= state.version) return book;
  return { ...book, [computerId]: state };
}

/** The book without the computers no longer in the account (a removed computer's agents leave the card). */
export function withComputersOnly(book: FleetBook, computerIds: readonly string[]): FleetBook {
  const kept = Object.entries(book).filter(([computerId]) => computerIds.includes(computerId));
  return kept.length === Object.keys(book).length ? book : Object.fromEntries(kept);
}
