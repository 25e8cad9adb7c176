/** A result row of either store: both name their columns the same. */
export type Row = Readonly<Record<string, unknown>>;

/** Reads a text column; anything else is a schema bug, not data to carry on with. */
export function text(value: unknown): string {
  if (typeof value !== "string") throw new TypeError(`Expected a text column, got ${typeof value}.`);
  return value;
}

export function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : text(value);
}

/** Reads an integer column (SQLite may give a bigint; PostgreSQL's BIGINT is read as a number by our connection). */
export function integer(value: unknown): number {
  if (typeof value !== "number" && typeof value !== "bigint") {
    throw new TypeError(`Expected an integer column, got ${typeof value}.`);
  }
  return Number(value);
}

export function integerOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : integer(value);
}
