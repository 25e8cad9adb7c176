import type { DatabaseSync } from "node:sqlite";
import { schemaMigrations } from "./schema-migrations.js";

/** The relay's schema in SQLite. */
const SQLITE_MIGRATIONS = schemaMigrations({
  bigint: "INTEGER",
  keyedTable: " WITHOUT ROWID",
  byteLength: (column) => `length(CAST(${column} AS BLOB))`,
  deviceJoinOrder: "",
  pairingCodeIndexes: "",
  instanceTables: "",
  deviceKindBackfill:
    "UPDATE call_deliveries SET device_kind = (SELECT kind FROM devices WHERE devices.id = call_deliveries.device_id);",
});

/** Brings the database to the latest version; returns that version. */
export function migrate(db: DatabaseSync): number {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
  );
  const isApplied = db.prepare("SELECT 1 AS applied FROM schema_migrations WHERE version = ?");
  for (const migration of SQLITE_MIGRATIONS) {
    if (isApplied.get(migration.version)) continue;
    // Checked again inside the write lock: two relay processes may start on the same file at once.
    db.exec("BEGIN IMMEDIATE");
    try {
      if (isApplied.get(migration.version)) {
        db.exec("COMMIT");
        continue;
      }
      db.exec(migration.sql);
      db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").run(
        migration.version,
        Date.now(),
      );
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }
  return latestMigrationVersion(db);
}

export function latestMigrationVersion(db: DatabaseSync): number {
  const row = db.prepare("SELECT MAX(version) AS version FROM schema_migrations").get();
  return Number(row?.version ?? 0);
}
