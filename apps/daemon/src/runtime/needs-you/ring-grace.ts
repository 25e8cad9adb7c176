/**
 * How long an ask waits before its phones ring: an agent's own review (Codex's automatic review) or a person at the
 * keyboard (Claude Code's dialog) often answers within moments, and the agent then stops the hook, so the ask never
 * rings at all. Short, since every ring that does come is this much later. `RINGBACK_PERMISSION_GRACE_MS` changes it.
 */
export const PERMISSION_GRACE_DEFAULT_MS = 2_000;
/** The longest grace a computer may set: beyond it a real ask would ring too late to be of use. */
export const PERMISSION_GRACE_MAX_MS = 30_000;

/**
 * Waits out the grace period of an ask: true once `graceMs` passed with the ask still waiting, false as soon as it
 * ended first (`ended` settles: the hook went away, the person is back at the keyboard, the daemon stops).
 */
export function isStillWaitingAfter(graceMs: number, ended: Promise<unknown>): Promise<boolean> {
  if (graceMs <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(true), graceMs);
    ended.then(
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}
