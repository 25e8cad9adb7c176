import type { HeldAsk } from "./pending-asks.js";

/** How often a held ask looks whether a ring mode's away time has ended: the time a dialog may come late. */
const AWAY_END_CHECK_MS = 15_000;

/**
 * While a hook waits for a phone, looks every `everyMs` whether the person still counts as away; once a ring mode's
 * away time has ended, the ask ends `present` and the agent's own dialog shows (a switch flipped by hand ends every
 * held ask at once, without this). A presence that cannot be read keeps the ask waiting for its phone.
 */
export function endWhenNoLongerAway(
  held: HeldAsk,
  isAway: () => Promise<boolean>,
  everyMs = AWAY_END_CHECK_MS,
): void {
  const timer = setInterval(() => {
    isAway().then(
      (away) => {
        if (!away) held.end({ outcome: "present" });
      },
      () => undefined,
    );
  }, everyMs);
  timer.unref();
  held.answer.finally(() => clearInterval(timer)).catch(() => undefined);
}
