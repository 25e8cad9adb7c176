/** The first wait before reconnecting the relay link; each failed attempt doubles it. */
const LINK_RECONNECT_INITIAL_MS = 1000;
/** The longest wait: a relay back from a restart is found within half a minute. */
export const LINK_RECONNECT_MAX_MS = 30_000;
/** Each wait is shortened by a random part up to this share, so daemons do not come back all at once. */
const LINK_RECONNECT_JITTER = 0.25;

/** The wait before the next attempt after `failedAttempts` (from 1) failed ones: 1 s, 2 s, 4 s … 30 s, minus jitter. */
export function linkReconnectDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, failedAttempts - 1);
  const base = Math.min(LINK_RECONNECT_MAX_MS, LINK_RECONNECT_INITIAL_MS * 2 ** exponent);
  return Math.round(base * (1 - LINK_RECONNECT_JITTER * random()));
}
