import { closeSync, openSync } from "node:fs";
import { DatabaseSync, type SQLInputValue, type SQLOutputValue, type StatementSync } from "node:sqlite";
import type { StoreQuery } from "./store-query.js";

export { integer, integerOrNull, text } from "./columns.js";

export type Row = Record<string, SQLOutputValue>;

/** How long a statement waits for another process's write lock before failing. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;
/** A 201 to the daemon means the event survives a power cut, so it is never lost after the daemon drops it. */
const DURABLE_SYNCHRONOUS = "FULL";

/** One `node:sqlite` connection with cached statements and a write-transaction helper. */
export class SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  #inTransaction = false;

  constructor(path: string) {
    // The file holds token hashes and ciphertext only, but it is the user's data: owner-only from the start.
    if (path !== ":memory:") closeSync(openSync(path, "a", 0o600));
    this.#db = new DatabaseSync(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    this.#db.exec("PRAGMA journal_mode = WAL");
    this.#db.exec(`PRAGMA synchronous = ${DURABLE_SYNCHRONOUS}`);
    // Erased report and brief ciphertext is overwritten in the file, not left in free pages.
    this.#db.exec("PRAGMA secure_delete = ON");
    this.#db.exec("PRAGMA foreign_keys = ON");
  }

  get raw(): DatabaseSync {
    return this.#db;
  }

  run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.#statement(sql).run(...params).changes);
  }

  get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.#statement(sql).get(...params) as Row | undefined;
  }

  all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.#statement(sql).all(...params) as Row[];
  }

  /** Runs a statement written once for both stores and reads its rows. */
  read<T>(query: StoreQuery<T>): T {
    return query.read(this.all(query.sql, ...query.parameters));
  }

  /** Runs `work` in one write transaction (BEGIN IMMEDIATE takes the write lock up front, so no upgrade deadlock). */
  transaction<T>(work: () => T): T {
    if (this.#inTransaction) return work();
    this.#db.exec("BEGIN IMMEDIATE");
    this.#inTransaction = true;
    try {
      const result = work();
      this.#db.exec("COMMIT");
      return result;
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    } finally {
      this.#inTransaction = false;
    }
  }

  /**
   * `transaction`, committed without waiting for the disk (WAL with `synchronous = NORMAL`): other connections see
   * it at once and a crash of the process keeps it, but a power cut may undo it, until the next commit that waits
   * for the disk (every other one) takes it along. Only for writes whose loss repeats work and loses nothing else.
   */
  transactionWithoutSync<T>(work: () => T): T {
    if (this.#inTransaction) return work();
    this.#db.exec("PRAGMA synchronous = NORMAL");
    try {
      return this.transaction(work);
    } finally {
      this.#db.exec(`PRAGMA synchronous = ${DURABLE_SYNCHRONOUS}`);
    }
  }

  /** Runs `work` on one read snapshot. */
  snapshot<T>(work: () => T): T {
    if (this.#inTransaction) return work();
    this.#db.exec("BEGIN");
    this.#inTransaction = true;
    try {
      return work();
    } finally {
      this.#inTransaction = false;
      this.#db.exec("COMMIT");
    }
  }

  /**
   * Copies the WAL into the database file and truncates it. Erased ciphertext is overwritten in the database by
   * secure_delete, but older page images stay in the WAL until a checkpoint: after an erasure this removes them.
   */
  checkpoint(): void {
    this.#db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }

  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
