import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe } from "vitest";
import { itKeepsItsDataAcrossAReopen } from "../../test/store-contract/reopen-contract.js";
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
  itKeepsItsDataAcrossAReopen(freshDir, openSqliteStore);
});
