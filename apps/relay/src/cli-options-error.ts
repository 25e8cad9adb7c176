/** A bad flag or variable: the message is for the person who typed it. */
export class RelayUsageError extends Error {
  override readonly name = "RelayUsageError";
}
