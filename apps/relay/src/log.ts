import { logSafeLine } from "@ringback/protocol";

/**
 * One line per request or event, to stderr. Lines carry ids only: never ciphertext, tokens, pairing codes, or the
 * claim code after its one print at start.
 */
export interface RelayLog {
  line(text: string): void;
}

/**
 * Each line's non-printable characters are escaped as a whole too (values are escaped where they are put in, see
 * `logSafe`), so nothing anywhere in a line can split it or reach the terminal raw.
 */
export const stderrLog: RelayLog = {
  line: (text) => {
    process.stderr.write(`ringback relay: ${logSafeLine(text)}\n`);
  },
};

export const silentLog: RelayLog = { line: () => {} };
