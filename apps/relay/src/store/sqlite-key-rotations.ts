import { integer, type Row, type SqliteDatabase, text } from "./sqlite-database.js";
import type { AddKeyRotationOutcome, KeyRotationRecord, NewKeyRotation } from "./store.js";

export function addKeyRotation(db: SqliteDatabase, input: NewKeyRotation): AddKeyRotationOutcome {
  return db.transaction(() => {
    const same = db.get(
      "SELECT rotation_id, sealed, created_at FROM key_rotations WHERE account_id = ? AND rotation_id = ?",
      input.accountId,
      input.rotationId,
    );
    if (same) {
      const record = toRecord(same);
      return record.sealed === input.sealed ? { kind: "repeat", record } : { kind: "conflict" };
    }
    const fromSameKey = db.get(
      "SELECT 1 AS found FROM key_rotations WHERE account_id = ? AND from_key_id = ?",
      input.accountId,
      input.fromKeyId,
    );
    if (fromSameKey) return { kind: "conflict" };
    db.run(
      "INSERT INTO key_rotations (account_id, rotation_id, from_key_id, posted_by, sealed, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      input.accountId,
      input.rotationId,
      input.fromKeyId,
      input.postedBy,
      input.sealed,
      input.now,
    );
    db.run(
      `DELETE FROM key_rotations WHERE account_id = ? AND rotation_id NOT IN (
        SELECT rotation_id FROM key_rotations WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?
      )`,
      input.accountId,
      input.accountId,
      input.keptMax,
    );
    return {
      kind: "created",
      record: { rotationId: input.rotationId, sealed: input.sealed, createdAt: input.now },
    };
  });
}

export function keyRotations(db: SqliteDatabase, accountId: string): KeyRotationRecord[] {
  return db
    .all(
      "SELECT rotation_id, sealed, created_at FROM key_rotations WHERE account_id = ? ORDER BY created_at, rowid",
      accountId,
    )
    .map(toRecord);
}

function toRecord(row: Row): KeyRotationRecord {
  return { rotationId: text(row.rotation_id), sealed: text(row.sealed), createdAt: integer(row.created_at) };
}
