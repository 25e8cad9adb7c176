/*
 * What each platform's idle counter prints, read into seconds. Each returns null for output it does not recognise:
 * a counter that answers oddly counts as unavailable, never as "idle for ever".
 */

/** `xprintidle`: milliseconds since the last input, one integer. */
export function xprintidleSeconds(output: string): number | null {
  const text = output.trim();
  return /^\d+$/.test(text) ? Math.floor(Number(text) / 1000) : null;
}

/**
 * `loginctl show-session auto -p IdleHint -p IdleSinceHint`: `IdleHint=yes|no` and `IdleSinceHint=<µs since the epoch>`.
 * The desktop sets the hint after its own idle delay; not idle is 0 s.
 */
export function logindIdleSeconds(output: string, nowMs: number): number | null {
  const fields = new Map(
    output
      .split("\n")
      .map((line) => line.trim().split("="))
      .filter((pair): pair is [string, string] => pair.length === 2),
  );
  const hint = fields.get("IdleHint");
  if (hint === "no") return 0;
  const since = fields.get("IdleSinceHint");
  if (hint !== "yes" || !since || !/^\d+$/.test(since) || since === "0") return null;
  return Math.max(0, Math.floor((nowMs - Number(since) / 1000) / 1000));
}

/** `ioreg -c IOHIDSystem -d 4`: `"HIDIdleTime" = <nanoseconds>` (the first one is the system's). */
export function hidIdleSeconds(output: string): number | null {
  const match = /"HIDIdleTime"\s*=\s*(\d+)/.exec(output);
  return match?.[1] ? Math.floor(Number(match[1]) / 1e9) : null;
}

/** The PowerShell script's output: milliseconds since the last input, one integer. */
export function windowsIdleSeconds(output: string): number | null {
  return xprintidleSeconds(output);
}
