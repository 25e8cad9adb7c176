import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "./sqlite-store.js";
import { describeStoreContract } from "./store-contract.js";
import { contractDevice, contractEvent, T0 } from "./store-contract-fixtures.js";

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

  it("commits events posted at once together: consecutive seqs, a repeat seen as one, a bad write failing alone", async () => {
    const store = openSqliteStore(await freshDir());
    await store.createAccount({ accountId: "acc1", device: contractDevice("pc", "computer"), now: T0 });
    const results = await Promise.allSettled([
      store.appendEvent(contractEvent({ eventId: "a" })),
      store.appendEvent(contractEvent({ eventId: "b" })),
      store.appendEvent(contractEvent({ eventId: "a" })),
      store.appendEvent(contractEvent({ eventId: "x", accountId: "no-such-account" })),
      store.appendEvent(contractEvent({ eventId: "c" })),
    ]);
    const outcomes = results.map((result) => (result.status === "fulfilled" ? result.value : "rejected"));
    expect(outcomes).toEqual([
      { kind: "created", entry: expect.objectContaining({ seq: 1 }) },
      { kind: "created", entry: expect.objectContaining({ seq: 2 }) },
      { kind: "repeat", seq: 1 },
      "rejected",
      { kind: "created", entry: expect.objectContaining({ seq: 3 }) },
    ]);
    const stream = await store.streamSince("acc1", 0);
    expect(stream.entries.map((entry) => entry.kind === "call" && entry.event.eventId)).toEqual([
      "a",
      "b",
      "c",
    ]);
    await store.close();
  });
});
