import type { Queries, Sql } from "./postgres-database.js";
import { schemaMigrations } from "./schema-migrations.js";

/**
 * The relay's schema in PostgreSQL: the same tables as SQLite, plus what several instances need to share: the lease on
 * each daemon link and relayed settings requests waiting for the instance that holds the link.
 */
const POSTGRES_MIGRATIONS = schemaMigrations({
  bigint: "BIGINT",
  keyedTable: "",
  byteLength: (column) => `octet_length(${column})`,
  deviceJoinOrder: "\n        joined BIGINT GENERATED ALWAYS AS IDENTITY,",
  pairingCodeIndexes: "\n      CREATE INDEX pairing_codes_by_creator ON pairing_codes(created_by);",
  instanceTables: `

      CREATE SEQUENCE daemon_link_generations;
      CREATE TABLE daemon_links (
        device_id TEXT PRIMARY KEY,
        instance_id TEXT NOT NULL,
        generation BIGINT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX daemon_links_by_instance ON daemon_links(instance_id);
      CREATE TABLE settings_requests (
        device_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        requester_id TEXT NOT NULL,
        sealed_request TEXT,
        sealed_result TEXT,
        error_code TEXT,
        error_message TEXT,
        is_answered BOOLEAN NOT NULL DEFAULT false,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (device_id, request_id)
      );
      CREATE INDEX settings_requests_by_age ON settings_requests(created_at);`,
  deviceKindBackfill:
    "UPDATE call_deliveries d SET device_kind = (SELECT kind FROM devices WHERE devices.id = d.device_id);",
});

const MIGRATION_LOCK_NAME = "ringback_relay_migrations:";

/**
 * Brings the schema to the latest version under a session advisory lock, so instances starting together wait
 * for the first one and then find nothing left to do. Returns the version reached.
 */
export async function migratePostgres(sql: Sql): Promise<number> {
  const connection = await sql.reserve();
  try {
    // One lock per schema: two schemas in one database (tests) migrate independently.
    await connection`SELECT pg_advisory_lock(hashtextextended(${MIGRATION_LOCK_NAME} || current_schema(), 0))`;
    try {
      await connection`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY,
        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`;
      const applied = new Set(
        (await connection`SELECT version FROM schema_migrations`).map((row) => Number(row.version)),
      );
      for (const migration of POSTGRES_MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        // A reserved connection has no begin(): the transaction is spelled out.
        await connection.unsafe("BEGIN");
        try {
          await connection.unsafe(migration.sql).simple();
          await connection`INSERT INTO schema_migrations (version) VALUES (${migration.version})`;
          await connection.unsafe("COMMIT");
        } catch (error) {
          await connection.unsafe("ROLLBACK");
          throw error;
        }
      }
    } finally {
      await connection`SELECT pg_advisory_unlock(hashtextextended(${MIGRATION_LOCK_NAME} || current_schema(), 0))`;
    }
    return await latestPostgresMigration(connection);
  } finally {
    connection.release();
  }
}

export async function latestPostgresMigration(db: Queries): Promise<number> {
  const [row] = await db`SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations`;
  return Number(row?.version ?? 0);
}
