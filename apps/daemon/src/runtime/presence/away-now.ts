import type { Presence } from "@ringback/protocol";
import type { Logger } from "../logger.js";
import type { IdleAway } from "./idle-away.js";
import { readPresence } from "./presence-file.js";

/** Whether the person counts as away now, and what says so. */
export interface AwayNow {
  readonly isAway: boolean;
  readonly presence: Presence;
  /** Away by input idle time alone (the switch and ring modes say present). */
  readonly isAwayByIdle: boolean;
}

/**
 * The switch, the ring modes' away times, and, when they say present, the computer's input idle time past the
 * user's threshold. Idle time that cannot be read counts as present: the switch and the modes alone decide.
 */
export async function awayNow(
  dataDir: string,
  now: Date,
  options: { log?: Logger; idleAway?: { check(): Promise<IdleAway> } },
): Promise<AwayNow> {
  const presence = await readPresence(dataDir, options.log, now);
  if (presence.away || !options.idleAway) return { isAway: presence.away, presence, isAwayByIdle: false };
  const idle = await options.idleAway.check().catch(() => null);
  const isAwayByIdle = idle?.kind === "read" && idle.isAway;
  return { isAway: isAwayByIdle, presence, isAwayByIdle };
}
