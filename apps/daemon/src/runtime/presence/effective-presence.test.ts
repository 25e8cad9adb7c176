import type { KeptAwaySchedule } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { effectivePresence } from "./effective-presence.js";
import type { StoredPresence } from "./stored-presence.js";

/** Away every day 08:00-09:00 UTC, sent by a phone on 1 November. */
const COMMUTE: KeptAwaySchedule = {
  timeZone: "UTC",
  periods: [{ modeName: "Commute", days: [0, 1, 2, 3, 4, 5, 6], ranges: [{ start: "08:00", end: "09:00" }] }],
  setAt: "2026-11-01T00:00:00.000Z",
  setBy: "a paired device",
};

const switched = (away: boolean, at: string | null, schedule: KeptAwaySchedule | null): StoredPresence => ({
  away,
  changedAt: at,
  changedBy: at ? "this computer" : null,
  schedule,
});

const at = (iso: string) => new Date(iso);

describe("presence: the latest change wins, the switch or a ring mode's away time", () => {
  it("is the switch alone without away times", () => {
    expect(
      effectivePresence(switched(true, "2026-11-24T07:00:00.000Z", null), at("2026-11-24T08:30:00Z")),
    ).toEqual({
      away: true,
      changedAt: "2026-11-24T07:00:00.000Z",
      changedBy: "this computer",
      schedule: null,
    });
  });

  it("goes away when an away time starts after the switch was set, and comes back when it ends", () => {
    const stored = switched(false, "2026-11-24T07:00:00.000Z", COMMUTE);
    expect(effectivePresence(stored, at("2026-11-24T08:30:00Z"))).toMatchObject({
      away: true,
      changedAt: "2026-11-24T08:00:00.000Z",
      changedBy: 'the ring mode "Commute"',
      changedByMode: "Commute",
    });
    expect(effectivePresence(stored, at("2026-11-24T09:30:00Z"))).toMatchObject({
      away: false,
      changedAt: "2026-11-24T09:00:00.000Z",
      changedBy: 'the ring mode "Commute"',
    });
  });

  it("keeps a switch set during an away time until that time ends", () => {
    const back = switched(false, "2026-11-24T08:10:00.000Z", COMMUTE);
    expect(effectivePresence(back, at("2026-11-24T08:30:00Z"))).toMatchObject({
      away: false,
      changedBy: "this computer",
    });
    const awayByHand = switched(true, "2026-11-24T08:10:00.000Z", COMMUTE);
    expect(effectivePresence(awayByHand, at("2026-11-24T09:30:00Z"))).toMatchObject({
      away: false,
      changedAt: "2026-11-24T09:00:00.000Z",
    });
  });

  it("lets the away times decide when the switch was never set", () => {
    expect(effectivePresence(switched(false, null, COMMUTE), at("2026-11-24T08:30:00Z"))).toMatchObject({
      away: true,
      changedBy: 'the ring mode "Commute"',
      schedule: COMMUTE,
    });
  });
});
