import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { describe, inject } from "vitest";
import { isPostgresSkipped } from "./postgres-server.js";

/** `describe` for suites that need PostgreSQL: skipped only when RINGBACK_SKIP_POSTGRES=1 says so. */
export const describePostgres = describe.skipIf(isPostgresSkipped());

/** The test server's URL; throws the reason it is missing, so the suite fails rather than passing silently. */
function postgresUrl(): string {
  const url = inject("postgresUrl");
  if (!url) throw new Error(inject("postgresError") || "The test PostgreSQL server did not start.");
  return url;
}

export interface PostgresSchema extends AsyncDisposable {
  readonly name: string;
  /** The server URL with `search_path` set to this schema: what a relay gets as `--database`. */
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, empty schema in the test database, dropped (with everything in it) when disposed. */
export async function postgresSchema(): Promise<PostgresSchema> {
  const serverUrl = postgresUrl();
  const name = `t_${randomBytes(6).toString("hex")}`;
  await adminStatement(serverUrl, `CREATE SCHEMA ${name}`);
  let isDropped = false;
  const drop = async () => {
    if (isDropped) return;
    isDropped = true;
    await adminStatement(serverUrl, `DROP SCHEMA ${name} CASCADE`);
  };
  return { name, url: `${serverUrl}?search_path=${name}`, drop, [Symbol.asyncDispose]: drop };
}

async function adminStatement(url: string, statement: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end({ timeout: 1 });
  }
}
