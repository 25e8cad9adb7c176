/** One line per event on stderr, `ringback: ...`. Callers never pass a key, token or passphrase. */
export type Logger = (message: string) => void;

export function createLogger(stream: { write(text: string): unknown } = process.stderr): Logger {
  return (message) => {
    stream.write(`ringback: ${message}\n`);
  };
}
