/** A schema version: the SQL that brings the schema to it, run once in its own transaction. */
export interface Migration {
  readonly version: number;
  readonly sql: string;
}

/** What SQLite and PostgreSQL spell differently in the relay's schema; the text each migration runs is fixed by it. */
export interface SchemaDialect {
  /** The type of a column holding a time in epoch ms, a seq or a byte count. */
  readonly bigint: string;
  /** What closes a table read by its primary key alone (SQLite stores it without a rowid). */
  readonly keyedTable: string;
  /** The bytes of a text column's value. */
  readonly byteLength: (column: string) => string;
  /** After `devices.account_id`: the order devices joined in, where the dialect does not keep it (a line each). */
  readonly deviceJoinOrder: string;
  /** After the `pairing_codes` table: its indexes beyond the key. */
  readonly pairingCodeIndexes: string;
  /** At the end of the first version: what several instances on one database share. */
  readonly instanceTables: string;
  /** Version 7's statement naming each delivery record's device kind from `devices`. */
  readonly deviceKindBackfill: string;
}

/**
 * Schema versions in order, the same tables in both dialects; each runs once, in its own transaction, and is recorded
 * in `schema_migrations`. Never edit a released migration (what it runs must stay the same to the byte): add the
 * next one.
 */
export const schemaMigrations = (dialect: SchemaDialect): readonly Migration[] => [
  {
    version: 1,
    sql: `
      CREATE TABLE relay_settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        created_at ${dialect.bigint} NOT NULL,
        last_seq ${dialect.bigint} NOT NULL DEFAULT 0
      );
      CREATE TABLE devices (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),${dialect.deviceJoinOrder}
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at ${dialect.bigint} NOT NULL,
        last_seen_at ${dialect.bigint},
        removed_at ${dialect.bigint}
      );
      CREATE INDEX devices_by_account ON devices(account_id);
      CREATE TABLE pairing_codes (
        code_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        created_by TEXT NOT NULL,
        expires_at ${dialect.bigint} NOT NULL
      );${dialect.pairingCodeIndexes}
      CREATE TABLE rate_limits (
        key TEXT PRIMARY KEY,
        count INTEGER NOT NULL,
        reset_at ${dialect.bigint} NOT NULL
      );
      CREATE TABLE events (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        event_id TEXT NOT NULL,
        seq ${dialect.bigint} NOT NULL,
        source TEXT NOT NULL,
        occurred_at TEXT NOT NULL,
        received_at ${dialect.bigint} NOT NULL,
        task_id TEXT,
        from_device_id TEXT NOT NULL,
        sealed TEXT,
        status TEXT NOT NULL,
        status_device_id TEXT,
        status_at ${dialect.bigint},
        expires_at ${dialect.bigint},
        PRIMARY KEY (account_id, event_id)
      );
      CREATE UNIQUE INDEX events_by_task ON events(account_id, task_id) WHERE task_id IS NOT NULL;
      CREATE INDEX events_by_expiry ON events(expires_at) WHERE expires_at IS NOT NULL;
      CREATE INDEX events_open_by_account ON events(account_id, seq) WHERE expires_at IS NOT NULL;
      CREATE INDEX events_by_status_at ON events(status_at) WHERE expires_at IS NULL;
      CREATE TABLE stream_entries (
        account_id TEXT NOT NULL,
        seq ${dialect.bigint} NOT NULL,
        kind TEXT NOT NULL,
        event_id TEXT NOT NULL,
        change TEXT,
        created_at ${dialect.bigint} NOT NULL,
        PRIMARY KEY (account_id, seq)
      )${dialect.keyedTable};
      CREATE INDEX stream_entries_by_time ON stream_entries(created_at);
      CREATE TABLE replies (
        account_id TEXT NOT NULL,
        reply_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        from_device_id TEXT NOT NULL,
        to_device_id TEXT NOT NULL,
        sealed TEXT,
        status TEXT NOT NULL,
        created_at ${dialect.bigint} NOT NULL,
        expires_at ${dialect.bigint} NOT NULL,
        settled_at ${dialect.bigint},
        PRIMARY KEY (account_id, reply_id)
      );
      CREATE INDEX replies_queued_by_device ON replies(to_device_id, created_at) WHERE status = 'queued';
      CREATE INDEX replies_queued_by_expiry ON replies(expires_at) WHERE status = 'queued';${dialect.instanceTables}
    `,
  },
  {
    // Web Push: one subscription per device, and the next push of each ringing call to each subscribed device.
    version: 2,
    sql: `
      CREATE TABLE push_subscriptions (
        device_id TEXT PRIMARY KEY REFERENCES devices(id),
        account_id TEXT NOT NULL REFERENCES accounts(id),
        endpoint TEXT NOT NULL,
        p256dh TEXT NOT NULL,
        auth TEXT NOT NULL,
        repeat_seconds INTEGER NOT NULL,
        updated_at ${dialect.bigint} NOT NULL
      );
      CREATE INDEX push_subscriptions_by_account ON push_subscriptions(account_id);
      CREATE TABLE push_deliveries (
        account_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        device_id TEXT NOT NULL,
        next_push_at ${dialect.bigint} NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        failures INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, event_id, device_id)
      )${dialect.keyedTable};
      CREATE INDEX push_deliveries_by_due ON push_deliveries(next_push_at);
      CREATE INDEX push_deliveries_by_device ON push_deliveries(device_id);
    `,
  },
  {
    // Delivery outcomes: once per (call, device, outcome), each with its seq; they go when the call's row goes.
    version: 3,
    sql: `
      CREATE TABLE call_deliveries (
        account_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        device_id TEXT NOT NULL,
        outcome TEXT NOT NULL,
        seq ${dialect.bigint} NOT NULL,
        device_name TEXT NOT NULL,
        at ${dialect.bigint} NOT NULL,
        PRIMARY KEY (account_id, event_id, device_id, outcome),
        FOREIGN KEY (account_id, event_id) REFERENCES events(account_id, event_id) ON DELETE CASCADE
      )${dialect.keyedTable};
      CREATE UNIQUE INDEX call_deliveries_by_seq ON call_deliveries(account_id, seq);
    `,
  },
  {
    // Wrong guesses a live pairing code has seen, relay-wide: past the budget the code is burned.
    version: 4,
    sql: "ALTER TABLE pairing_codes ADD COLUMN wrong_guesses INTEGER NOT NULL DEFAULT 0;",
  },
  {
    // The bytes of each call's stored ciphertext, so an account's open calls and their bytes are counted from an
    // index alone (its quota) without reading the ciphertext.
    version: 5,
    sql: `
      ALTER TABLE events ADD COLUMN sealed_bytes ${dialect.bigint} NOT NULL DEFAULT 0;
      UPDATE events SET sealed_bytes = ${dialect.byteLength("sealed")} WHERE sealed IS NOT NULL;
      CREATE INDEX events_open_usage ON events(account_id, sealed_bytes) WHERE expires_at IS NOT NULL;
    `,
  },
  {
    // The bytes of each queued reply's ciphertext, so an account's queued replies and their bytes are counted from
    // an index alone (its quota), as its open calls are.
    version: 6,
    sql: `
      ALTER TABLE replies ADD COLUMN sealed_bytes ${dialect.bigint} NOT NULL DEFAULT 0;
      UPDATE replies SET sealed_bytes = ${dialect.byteLength("sealed")} WHERE sealed IS NOT NULL;
      CREATE INDEX replies_queued_usage ON replies(account_id, sealed_bytes) WHERE status = 'queued';
    `,
  },
  {
    // The kind of the device a delivery record names: what readers show when its (sealed) name does not open.
    version: 7,
    sql: `
      ALTER TABLE call_deliveries ADD COLUMN device_kind TEXT;
      ${dialect.deviceKindBackfill}
    `,
  },
  {
    // Key rotation notices (the account's new key sealed under the old one): one per old key per account, and the
    // device that posted each (its notices go when it is removed).
    version: 8,
    sql: `
      CREATE TABLE key_rotations (
        account_id TEXT NOT NULL,
        rotation_id TEXT NOT NULL,
        from_key_id TEXT NOT NULL,
        posted_by TEXT NOT NULL,
        sealed TEXT NOT NULL,
        created_at ${dialect.bigint} NOT NULL,
        PRIMARY KEY (account_id, rotation_id)
      );
      CREATE UNIQUE INDEX key_rotations_by_old_key ON key_rotations(account_id, from_key_id);
    `,
  },
  {
    // Each computer's latest fleet state (sealed and padded: what its agents are doing), passed on to the account's
    // devices; it goes with the computer.
    version: 9,
    sql: `
      CREATE TABLE fleet_states (
        computer_id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        sealed TEXT NOT NULL,
        received_at ${dialect.bigint} NOT NULL
      )${dialect.keyedTable};
      CREATE INDEX fleet_states_by_account ON fleet_states(account_id);
    `,
  },
  {
    // Whether a call rings (pushed) or is only kept and listed (`quiet`: read later in a round-up).
    version: 10,
    sql: "ALTER TABLE events ADD COLUMN ring TEXT NOT NULL DEFAULT 'ring';",
  },
];
