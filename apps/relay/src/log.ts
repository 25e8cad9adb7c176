/**
 * One line per request or event, to stderr. Lines carry ids only: never ciphertext, tokens, pairing codes, or the
 * claim code after its one print at start.
 */
export interface RelayLog {
  line(text: string): void;
}

export const stderrLog: RelayLog = {
  line: (text) => {
    process.stderr.write(`ringback relay: ${text}\n`);
  },
};

export const silentLog: RelayLog = { line: () => {} };
