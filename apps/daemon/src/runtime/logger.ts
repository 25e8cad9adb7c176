import { logSafeLine } from "@ringback/protocol";

/** One line per event on stderr, `ringback: ...`. Callers never pass a key, token or passphrase. */
export type Logger = (message: string) => void;

/**
 * Each message's non-printable characters are escaped as a whole too (values from requests are escaped and cut where
 * they are put in, see `logSafe`), so nothing in a message can split its line or reach the terminal raw.
 */
export function createLogger(stream: { write(text: string): unknown } = process.stderr): Logger {
  return (message) => {
    stream.write(`ringback: ${logSafeLine(message)}\n`);
  };
}
