import { KeptAwaySchedule, Presence } from "@ringback/protocol";
import type { z } from "zod";

/** What presence.json keeps: the switch as last set by hand, and the ring modes' away times. */
export const StoredPresence = Presence.omit({ schedule: true }).extend({
  schedule: KeptAwaySchedule.nullable().default(null),
});
export type StoredPresence = z.infer<typeof StoredPresence>;
