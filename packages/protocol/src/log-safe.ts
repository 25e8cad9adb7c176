/** Characters of one value from a request (a path) a log line keeps; the rest is cut, and the line says how much. */
export const LOG_VALUE_MAX_CHARS = 200;

/** Anything but printable ASCII, and the backslash that starts an escape. */
const UNSAFE_CHARS = /[^\x20-\x5b\x5d-\x7e]/g;
/** Anything but printable ASCII: what a whole line may not carry raw. */
const NON_PRINTABLE_CHARS = /[^\x20-\x7e]/g;

/**
 * A value from outside (a request's path, which any web page the user visits can choose) made safe for one log line:
 * every character outside printable ASCII (line feeds, carriage returns, terminal escapes and every other control, and
 * beyond ASCII such as U+2028 or a bidi override) becomes an escape (`\n`, `\x1b`, `\u202e`), a backslash `\\`; past
 * `maxChars` it is cut with `...(+N chars)`. Nothing it returns can end a line, start a forged one, move a terminal's
 * cursor or colour it.
 */
export function logSafe(value: string, maxChars = Number.POSITIVE_INFINITY): string {
  const kept = value.length > maxChars ? value.slice(0, maxChars) : value;
  const escaped = kept.replace(UNSAFE_CHARS, escapeChar);
  return value.length > maxChars ? `${escaped}...(+${value.length - maxChars} chars)` : escaped;
}

/**
 * A whole log line with its non-printable characters escaped (values from requests are escaped and cut where they are
 * put in, see `logSafe`), so nothing anywhere in a line can split it or reach the terminal raw.
 */
export function logSafeLine(line: string): string {
  return line.replace(NON_PRINTABLE_CHARS, escapeChar);
}

function escapeChar(char: string): string {
  if (char === "\\") return "\\\\";
  if (char === "\n") return "\\n";
  if (char === "\r") return "\\r";
  if (char === "\t") return "\\t";
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}
