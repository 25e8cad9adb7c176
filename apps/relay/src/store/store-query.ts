import type { Row } from "./columns.js";

/** A parameter both stores bind the same way. */
export type Parameter = string | number | null;

/**
 * A statement both stores run as it is (`?` placeholders), its parameters, and what its rows mean: written once,
 * run by SQLite's `db.read(query)` and PostgreSQL's `read(db, query)`.
 */
export interface StoreQuery<T> {
  readonly sql: string;
  readonly parameters: readonly Parameter[];
  readonly read: (rows: readonly Row[]) => T;
}

export function storeQuery<T>(
  sql: string,
  parameters: readonly Parameter[],
  read: (rows: readonly Row[]) => T,
): StoreQuery<T> {
  return { sql, parameters, read };
}

/** A statement run for what it writes. */
export function storeWrite(sql: string, parameters: readonly Parameter[]): StoreQuery<void> {
  return { sql, parameters, read: () => undefined };
}

/** Reads the first row with `toRecord`, null when there is none. */
export function firstOrNull<T>(toRecord: (row: Row) => T): (rows: readonly Row[]) => T | null {
  return (rows) => {
    const [row] = rows;
    return row ? toRecord(row) : null;
  };
}
