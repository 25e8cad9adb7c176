import { spawnSync } from "node:child_process";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeBrief, makeEntry, makeReport } from "./__fixtures__/outbox-fixtures.js";
import { OUTBOX_JOURNAL_FILE, OUTBOX_LOCK_FILE, OUTBOX_SNAPSHOT_FILE } from "./file-format.js";
import { isOutboxError } from "./outbox-error.js";
import { FINISHED_EVENT_IDS_KEPT, JOURNAL_COMPACT_MIN_BYTES, OutboxStore } from "./store.js";

let directory: TemporaryDirectory;
const openStores: OutboxStore[] = [];

async function openStore(path = directory.path): Promise<OutboxStore> {
  const store = await OutboxStore.open(path);
  openStores.push(store);
  return store;
}

async function fileMode(name: string, path = directory.path): Promise<number> {
  return (await stat(join(path, name))).mode & 0o777;
}

beforeEach(async () => {
  directory = await makeTemporaryDirectory();
});

afterEach(async () => {
  for (const store of openStores.splice(0)) await store.close();
  await directory.remove();
});

describe("OutboxStore", () => {
  it("has an accepted entry on disk when accept resolves: a second open reads it back", async () => {
    const store = await openStore();
    await store.accept(makeEntry(1));
    const journal = await readFile(join(directory.path, OUTBOX_JOURNAL_FILE), "utf8");
    expect(journal).toContain('"eventId":"evt_0001"');

    const reopened = await openStore();
    expect(reopened.entries().map((entry) => entry.report.eventId)).toEqual(["evt_0001"]);
    expect(reopened.get("evt_0001")?.report.text).toBe(makeReport(1).text);
  });

  it("writes outbox.json and outbox.journal with mode 600 and creates the directory with mode 700", async () => {
    const nested = join(directory.path, "data");
    const store = await openStore(nested);
    await store.accept(makeEntry(1));
    expect(await fileMode(OUTBOX_SNAPSHOT_FILE, nested)).toBe(0o600);
    expect(await fileMode(OUTBOX_JOURNAL_FILE, nested)).toBe(0o600);
    expect((await stat(nested)).mode & 0o777).toBe(0o700);
  });

  it("refuses an outbox another live process has open, and takes over the lock of one that is gone", async () => {
    const lockPath = join(directory.path, OUTBOX_LOCK_FILE);
    await writeFile(lockPath, String(process.ppid));
    const error = await OutboxStore.open(directory.path).catch((caught: unknown) => caught);
    expect(isOutboxError(error) && error.code).toBe("locked");

    const gone = spawnSync(process.execPath, ["-e", "process.pid"]).pid;
    await writeFile(lockPath, String(gone));
    const store = await openStore();
    expect(await readFile(lockPath, "utf8")).toBe(String(process.pid));
    expect(await fileMode(OUTBOX_LOCK_FILE)).toBe(0o600);
    await store.close();
    await expect(stat(lockPath)).rejects.toThrow();
  });

  it("tightens the mode of existing outbox files to 600", async () => {
    await writeFile(join(directory.path, OUTBOX_JOURNAL_FILE), "", { mode: 0o644 });
    await writeFile(
      join(directory.path, OUTBOX_SNAPSHOT_FILE),
      JSON.stringify({ version: 1, generation: 0, entries: [], finished: [] }),
      { mode: 0o644 },
    );
    await openStore();
    expect(await fileMode(OUTBOX_SNAPSHOT_FILE)).toBe(0o600);
    expect(await fileMode(OUTBOX_JOURNAL_FILE)).toBe(0o600);
  });

  it("treats a second append of the same event id as a no-op that reports duplicate", async () => {
    const store = await openStore();
    expect(await store.accept(makeEntry(1))).toBe("accepted");
    expect(await store.accept(makeEntry(1, { acceptedAt: "2030-01-01T00:00:00.000Z" }))).toBe("duplicate");
    expect(store.entries()).toHaveLength(1);
    expect(store.get("evt_0001")?.acceptedAt).toBe(makeEntry(1).acceptedAt);

    await store.finish("evt_0001", "sent", new Date().toISOString(), null);
    expect(await store.accept(makeEntry(1))).toBe("duplicate");
    await store.close();
    const reopened = await openStore();
    expect(await reopened.accept(makeEntry(1))).toBe("duplicate");
    expect(reopened.entries()).toHaveLength(0);
  });

  it("reports duplicate for two appends made at once, each resolving only when durable", async () => {
    const store = await openStore();
    const results = await Promise.all([store.accept(makeEntry(7)), store.accept(makeEntry(7))]);
    expect(results.sort()).toEqual(["accepted", "duplicate"]);
    expect((await openStore()).entries()).toHaveLength(1);
  });

  it("shares one fsync among appends made at the same time (group commit)", async () => {
    const store = await openStore();
    const syncsBefore = store.journalSyncs;
    await Promise.all(Array.from({ length: 50 }, (_, index) => store.accept(makeEntry(index))));
    expect(store.journalSyncs - syncsBefore).toBe(1);
    expect((await openStore()).entries()).toHaveLength(50);
  });

  it("replays updates and finishes from the journal in order", async () => {
    const store = await openStore();
    await Promise.all([store.accept(makeEntry(1)), store.accept(makeEntry(2)), store.accept(makeEntry(3))]);
    const brief = makeBrief(makeReport(1));
    await store.update("evt_0001", { state: "generated", brief });
    await store.update("evt_0001", { attempts: 2, nextAttemptAt: "2030-01-01T00:00:00.000Z" });
    await store.finish(
      "evt_0002",
      "dropped",
      "2030-01-01T00:00:00.000Z",
      "relay answered 400 invalid_request",
    );

    const reopened = await openStore();
    expect(reopened.recovery).toMatchObject({ entries: 2, replayedRecords: 6, ignoredLines: 0 });
    expect(reopened.entries().map((entry) => entry.report.eventId)).toEqual(["evt_0001", "evt_0003"]);
    expect(reopened.get("evt_0001")).toMatchObject({ state: "generated", brief, attempts: 2 });
    expect(reopened.getFinished("evt_0002")).toMatchObject({
      state: "dropped",
      reason: "relay answered 400 invalid_request",
    });
  });

  it("ignores a torn last journal line and keeps appending cleanly after it", async () => {
    const store = await openStore();
    await store.accept(makeEntry(1));
    await store.accept(makeEntry(2));
    await store.close();
    const journalPath = join(directory.path, OUTBOX_JOURNAL_FILE);
    const whole = JSON.stringify({ op: "accept", entry: makeEntry(3) });
    await writeFile(journalPath, `${await readFile(journalPath, "utf8")}${whole.slice(0, whole.length / 2)}`);

    const reopened = await openStore();
    expect(reopened.recovery.ignoredLines).toBe(1);
    expect(reopened.entries().map((entry) => entry.report.eventId)).toEqual(["evt_0001", "evt_0002"]);
    await reopened.accept(makeEntry(4));
    await reopened.close();

    const again = await openStore();
    expect(again.recovery.ignoredLines).toBe(0);
    expect(again.entries().map((entry) => entry.report.eventId)).toEqual([
      "evt_0001",
      "evt_0002",
      "evt_0004",
    ]);
  });

  it("folds a journal that outgrew its limit into the snapshot and starts the journal over", async () => {
    const store = await openStore();
    const text = "x".repeat(4096);
    const count = Math.ceil(JOURNAL_COMPACT_MIN_BYTES / text.length) + 20;
    for (let index = 0; index < count; index += 1) {
      await store.accept(makeEntry(index, { report: makeReport(index, { text }) }));
    }
    const journal = await readFile(join(directory.path, OUTBOX_JOURNAL_FILE), "utf8");
    const snapshot = JSON.parse(await readFile(join(directory.path, OUTBOX_SNAPSHOT_FILE), "utf8"));
    const journalRecords = journal.trimEnd().split("\n").length - 1;
    expect(Buffer.byteLength(journal)).toBeLessThan(JOURNAL_COMPACT_MIN_BYTES);
    expect(snapshot.entries.length).toBeGreaterThan(0);
    expect(snapshot.entries.length + journalRecords).toBe(count);
    expect(await fileMode(OUTBOX_SNAPSHOT_FILE)).toBe(0o600);

    await store.close();
    expect((await openStore()).entries()).toHaveLength(count);
  });

  it("ignores a journal of an older generation than the snapshot (a crash between rename and reset)", async () => {
    const store = await openStore();
    await store.accept(makeEntry(1));
    await store.update("evt_0001", { attempts: 3 });
    await store.close();
    const stale = [
      JSON.stringify({ version: 1, generation: 0 }),
      JSON.stringify({ op: "update", eventId: "evt_0001", changes: { attempts: 0 } }),
      JSON.stringify({ op: "accept", entry: makeEntry(2) }),
    ].join("\n");
    await openStore().then((reopened) => reopened.close());
    await writeFile(join(directory.path, OUTBOX_JOURNAL_FILE), `${stale}\n`);

    const reopened = await openStore();
    expect(reopened.entries().map((entry) => [entry.report.eventId, entry.attempts])).toEqual([
      ["evt_0001", 3],
    ]);
  });

  it("turns an entry that was generating at a crash back into accepted", async () => {
    await writeFile(
      join(directory.path, OUTBOX_SNAPSHOT_FILE),
      JSON.stringify({
        version: 1,
        generation: 4,
        entries: [makeEntry(1, { state: "generating" })],
        finished: [],
      }),
    );
    const store = await openStore();
    expect(store.get("evt_0001")?.state).toBe("accepted");
  });

  it("refuses to open a snapshot that is not valid JSON, naming the file, and leaves it untouched", async () => {
    const snapshotPath = join(directory.path, OUTBOX_SNAPSHOT_FILE);
    await writeFile(snapshotPath, "{ not json");
    const error = await OutboxStore.open(directory.path).catch((caught: unknown) => caught);
    expect(isOutboxError(error) && error.code).toBe("corrupt_store");
    expect((error as Error).message).toContain(snapshotPath);
    expect(await readFile(snapshotPath, "utf8")).toBe("{ not json");
  });

  it("names the field of a snapshot that does not match the format", async () => {
    const bad = { version: 1, generation: 1, entries: [{ ...makeEntry(1), attempts: -1 }], finished: [] };
    await writeFile(join(directory.path, OUTBOX_SNAPSHOT_FILE), JSON.stringify(bad));
    await expect(OutboxStore.open(directory.path)).rejects.toThrow(/entries\.0\.attempts/);
  });

  it("remembers at most FINISHED_EVENT_IDS_KEPT finished event ids, forgetting the oldest", async () => {
    const store = await openStore();
    const count = FINISHED_EVENT_IDS_KEPT + 5;
    const indexes = Array.from({ length: count }, (_, index) => index);
    await Promise.all(indexes.map((index) => store.accept(makeEntry(index))));
    await Promise.all(
      indexes.map((index) => store.finish(makeReport(index).eventId, "sent", "2030-01-01", null)),
    );
    await store.close();

    const reopened = await openStore();
    const finished = reopened.finishedEntries();
    expect(finished).toHaveLength(FINISHED_EVENT_IDS_KEPT);
    expect(finished[0]?.eventId).toBe(makeReport(5).eventId);
  });
});
