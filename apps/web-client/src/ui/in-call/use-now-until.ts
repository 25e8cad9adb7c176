import { useEffect, useState } from "preact/hooks";

/**
 * The time now, rendered again once `deadline` passes: a "needs you" ask's expiry turns its buttons off then, with
 * no render of anything else to wait for.
 */
export function useNowUntil(deadline: string | null): Date {
  const [, setPassed] = useState(0);
  useEffect(() => {
    const waitMs = (deadline === null ? Number.NaN : Date.parse(deadline)) - Date.now();
    if (!(waitMs > 0)) return undefined;
    // One timer, just past the deadline (browsers cap a timeout at 2^31 - 1 ms; an ask waits minutes).
    const timer = setTimeout(() => setPassed((count) => count + 1), Math.min(waitMs + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [deadline]);
  return new Date();
}
