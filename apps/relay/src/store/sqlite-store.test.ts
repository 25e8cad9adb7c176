import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeStoreContract } from "../../test/store-contract/store-contract-suite.js";
import { openSqliteStore } from "./sqlite-store.js";

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ringback-relay-store-"));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describeStoreContract("sqlite", async () => openSqliteStore(await freshDir()));

describe("sqlite store", () => {
  it("keeps its data and migration version across a reopen", async () => {
    const dir = await freshDir();
    const first = openSqliteStore(dir);
    await first.createAccount({
      accountId: "acc1",
      device: { id: "pc", name: "pc", kind: "computer", tokenHash: "h" },
      now: 1,
    });
    const version = await first.migrationVersion();
    await first.close();
    const second = openSqliteStore(dir);
    expect(await second.migrationVersion()).toBe(version);
    expect((await second.findDeviceByTokenHash("h"))?.id).toBe("pc");
    await second.close();
  });
});
