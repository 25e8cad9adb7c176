import { integer, type PostgresDatabase, type Queries, type Row, text } from "./postgres-database.js";
import type { AddKeyRotationOutcome, KeyRotationRecord, NewKeyRotation } from "./store.js";

export function addKeyRotation(pg: PostgresDatabase, input: NewKeyRotation): Promise<AddKeyRotationOutcome> {
  return pg.transaction(async (tx) => {
    const [same] = await tx`SELECT rotation_id, sealed, created_at FROM key_rotations
      WHERE account_id = ${input.accountId} AND rotation_id = ${input.rotationId}`;
    if (same) {
      const record = toRecord(same);
      return record.sealed === input.sealed ? { kind: "repeat", record } : { kind: "conflict" };
    }
    // The unique index on the old key decides between two instances inserting at once.
    const inserted = await tx`INSERT INTO key_rotations
      (account_id, rotation_id, from_key_id, posted_by, sealed, created_at)
      VALUES (${input.accountId}, ${input.rotationId}, ${input.fromKeyId}, ${input.postedBy}, ${input.sealed},
        ${input.now})
      ON CONFLICT DO NOTHING RETURNING rotation_id`;
    if (inserted.length === 0) return { kind: "conflict" };
    await tx`DELETE FROM key_rotations WHERE account_id = ${input.accountId} AND rotation_id NOT IN (
      SELECT rotation_id FROM key_rotations WHERE account_id = ${input.accountId}
      ORDER BY created_at DESC, rotation_id DESC LIMIT ${input.keptMax}
    )`;
    return {
      kind: "created",
      record: { rotationId: input.rotationId, sealed: input.sealed, createdAt: input.now },
    };
  });
}

export async function keyRotations(db: Queries, accountId: string): Promise<KeyRotationRecord[]> {
  const rows = await db`SELECT rotation_id, sealed, created_at FROM key_rotations
    WHERE account_id = ${accountId} ORDER BY created_at, rotation_id`;
  return rows.map(toRecord);
}

function toRecord(row: Row): KeyRotationRecord {
  return { rotationId: text(row.rotation_id), sealed: text(row.sealed), createdAt: integer(row.created_at) };
}
