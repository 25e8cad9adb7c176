import postgres from "postgres";
import { type ClusterMessage, encodeClusterMessage } from "./cluster-messages.js";
import type { Parameter, StoreQuery } from "./store-query.js";

export { integer, text, textOrNull } from "./columns.js";

export type Sql = postgres.Sql;
/** A connection that runs queries: the pool, or one transaction. */
export type Queries = postgres.ISql;
export type Row = postgres.Row;

/** Connections per relay instance (plus one for LISTEN); the pool queues beyond it. */
const POSTGRES_POOL_MAX = 10;
const CONNECT_TIMEOUT_SECONDS = 10;
/** A transaction aborted by a deadlock or a serialization conflict is run again this many times. */
const TRANSACTION_ATTEMPTS_MAX = 4;
const RETRYABLE_CODES = new Set(["40001", "40P01"]);
const INT8_OID = 20;
const CHANNEL_PREFIX = "ringback_relay";

/** One PostgreSQL pool for the store and the cluster, and the NOTIFY channel of this schema. */
export interface PostgresDatabase {
  readonly sql: Sql;
  /** Every instance on the same schema listens here; another schema in the same database gets its own. */
  readonly channel: string;
  readonly schema: string;
  /** Runs `work` in one READ COMMITTED transaction, again when PostgreSQL aborted it for a deadlock. */
  transaction<T>(work: (tx: Queries) => Promise<T>): Promise<T>;
  /** Runs `work` on one read-only snapshot. */
  snapshot<T>(work: (tx: Queries) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Connects to `url` (a `postgres://` URL; `?search_path=` picks a schema). BIGINT columns (times in epoch ms,
 * sequence numbers) come back as numbers: they stay far below 2^53.
 */
export async function connectPostgres(url: string): Promise<PostgresDatabase> {
  const sql = postgres(url, {
    max: POSTGRES_POOL_MAX,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    onnotice: () => {},
    types: { int8: { to: INT8_OID, from: [INT8_OID], serialize: String, parse: Number } },
    connection: { application_name: "ringback-relay" },
  }) as unknown as Sql;
  try {
    const [row] = await sql`SELECT current_schema() AS schema`;
    const schema = typeof row?.schema === "string" ? row.schema : null;
    if (!schema) throw new Error("The database has no schema to create tables in (check search_path).");
    return postgresDatabase(sql, schema);
  } catch (error) {
    await sql.end({ timeout: 0 });
    throw error;
  }
}

function postgresDatabase(sql: Sql, schema: string): PostgresDatabase {
  const run = async <T>(options: string, work: (tx: Queries) => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await sql.begin(options, (tx) => work(tx))) as T;
      } catch (error) {
        if (attempt >= TRANSACTION_ATTEMPTS_MAX || !isRetryable(error)) throw error;
      }
    }
  };
  return {
    sql,
    schema,
    channel: schema === "public" ? CHANNEL_PREFIX : `${CHANNEL_PREFIX}.${schema}`,
    transaction: (work) => run("isolation level read committed", work),
    snapshot: (work) => run("isolation level repeatable read read only", work),
    close: () => sql.end({ timeout: 5 }),
  };
}

function isRetryable(error: unknown): boolean {
  return error instanceof postgres.PostgresError && RETRYABLE_CODES.has(error.code);
}

/** True for a unique-constraint violation (another instance won the insert). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof postgres.PostgresError && error.code === "23505";
}

/**
 * Runs a statement written once for both stores (`?` placeholders, SQLite's `?N` for a repeated one) with its
 * parameters in order; PostgreSQL numbers them `$1`, `$2`, ....
 */
export function query(db: Queries, statement: string, parameters: readonly Parameter[] = []): Promise<Row[]> {
  return db.unsafe(numbered(statement), [...parameters], { prepare: true });
}

/** Runs a statement written once for both stores and reads its rows. */
export async function read<T>(db: Queries, storeQuery: StoreQuery<T>): Promise<T> {
  return storeQuery.read(await query(db, storeQuery.sql, storeQuery.parameters));
}

const numberedStatements = new Map<string, string>();

function numbered(statement: string): string {
  let numberedText = numberedStatements.get(statement);
  if (numberedText === undefined) {
    let next = 0;
    numberedText = statement.replace(/\?(\d*)/g, (_, index: string) => `$${index === "" ? ++next : index}`);
    numberedStatements.set(statement, numberedText);
  }
  return numberedText;
}

/** Queues a notification; inside a transaction PostgreSQL delivers it only if, and when, the transaction commits. */
export async function notify(db: Queries, channel: string, message: ClusterMessage): Promise<void> {
  await db`SELECT pg_notify(${channel}, ${encodeClusterMessage(message)})`;
}
