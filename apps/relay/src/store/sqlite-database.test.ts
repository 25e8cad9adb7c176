import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteDatabase } from "./sqlite-database.js";

/** `PRAGMA synchronous` values. */
const FULL = 2;
const NORMAL = 1;

describe("SqliteDatabase", () => {
  let dir: string;
  let db: SqliteDatabase;
  const synchronous = () => db.get("PRAGMA synchronous")?.synchronous;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "ringback-sqlite-database-"));
    db = new SqliteDatabase(join(dir, "relay.db"));
    db.run("CREATE TABLE claims (id INTEGER PRIMARY KEY)");
  });
  afterEach(async () => {
    db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("commits a transaction without sync for other connections to see, and waits for the disk again after it", () => {
    expect(synchronous()).toBe(FULL);
    let during: unknown;
    db.transactionWithoutSync(() => {
      during = synchronous();
      db.run("INSERT INTO claims (id) VALUES (1)");
    });
    expect(during).toBe(NORMAL);
    expect(synchronous()).toBe(FULL);
    const other = new SqliteDatabase(join(dir, "relay.db"));
    try {
      expect(other.all("SELECT id FROM claims")).toEqual([{ id: 1 }]);
    } finally {
      other.close();
    }
  });

  it("rolls a failed one back and still waits for the disk after it", () => {
    expect(() =>
      db.transactionWithoutSync(() => {
        db.run("INSERT INTO claims (id) VALUES (2)");
        throw new Error("failed");
      }),
    ).toThrow("failed");
    expect(db.all("SELECT id FROM claims")).toEqual([]);
    expect(synchronous()).toBe(FULL);
  });

  it("leaves a transaction it runs inside to the outer one's commit", () => {
    db.transaction(() => {
      db.transactionWithoutSync(() => db.run("INSERT INTO claims (id) VALUES (3)"));
      expect(synchronous()).toBe(FULL);
    });
    expect(db.all("SELECT id FROM claims")).toEqual([{ id: 3 }]);
  });
});
