import { afterAll, expect, it } from "vitest";
import { itKeepsItsDataAcrossAReopen } from "../../test/store-contract/reopen-contract.js";
import { describeStoreContract } from "../../test/store-contract/store-contract-suite.js";
import { describePostgres, type PostgresSchema, postgresSchema } from "../../test/support/postgres-schema.js";
import { openPostgresStore } from "./postgres-store.js";

describePostgres("postgres store", () => {
  const schemas: PostgresSchema[] = [];
  async function freshSchema(): Promise<PostgresSchema> {
    const schema = await postgresSchema();
    schemas.push(schema);
    return schema;
  }
  // About 80 schemas at once: on a busy 2-core machine, dropping them can take longer than a hook's default 10 s.
  afterAll(async () => {
    await Promise.all(schemas.map((schema) => schema.drop()));
  }, 60_000);

  describeStoreContract("postgres", async () => openPostgresStore((await freshSchema()).url));

  it("migrates once when several instances start together", async () => {
    const schema = await freshSchema();
    const stores = await Promise.all([1, 2, 3].map(() => openPostgresStore(schema.url)));
    try {
      const versions = await Promise.all(stores.map((store) => store.migrationVersion()));
      expect(new Set(versions).size).toBe(1);
      const rows = await stores[0]!.database.sql`SELECT version FROM schema_migrations ORDER BY version`;
      expect(rows.map((row) => row.version)).toEqual(
        Array.from({ length: versions[0]! }, (_, index) => index + 1),
      );
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  itKeepsItsDataAcrossAReopen(
    async () => (await freshSchema()).url,
    (url) => openPostgresStore(url),
  );
});
