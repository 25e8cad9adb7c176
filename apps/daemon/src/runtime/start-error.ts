/**
 * A problem the user must fix before the daemon can run (a malformed daemon.json, a port in use, a bad
 * option). `main` prints its message as is and exits with code 1.
 */
export class StartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StartError";
  }
}
