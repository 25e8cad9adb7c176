import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeBrief, makeEntry, makeReport } from "./__fixtures__/outbox-fixtures.js";
import type { OutboxEntry } from "./entry.js";
import { OUTBOX_JOURNAL_FILE, OUTBOX_SNAPSHOT_FILE } from "./file-format.js";
import { ERASE_FINISHED_REPORTS_WITHIN_MS, OutboxStore } from "./store.js";

let directory: TemporaryDirectory;
let now: number;
const openStores: OutboxStore[] = [];

async function openStore(): Promise<OutboxStore> {
  const store = await OutboxStore.open(directory.path, { now: () => now });
  openStores.push(store);
  return store;
}

/** What both files hold now: whatever a backup, another user or a later reader of the disk would find. */
async function onDisk(): Promise<string> {
  const read = (name: string) => readFile(join(directory.path, name), "utf8");
  return `${await read(OUTBOX_SNAPSHOT_FILE)}\n${await read(OUTBOX_JOURNAL_FILE)}`;
}

/** A report whose text, session id and directory are easy to find on disk. */
function privateEntry(index: number, textLength = 100): OutboxEntry {
  const report = makeReport(index, {
    text: `private-text-${index} ${"x".repeat(textLength)}`,
    sessionId: `private-session-${index}`,
    cwd: `/home/ada/private-project-${index}`,
  });
  return makeEntry(index, { report });
}

/** The marks of `entry` found on disk. */
async function marksOf(index: number): Promise<string[]> {
  const text = await onDisk();
  return [`private-text-${index}`, `private-session-${index}`, `private-project-${index}`].filter((mark) =>
    text.includes(mark),
  );
}

async function sendAndFinish(store: OutboxStore, entry: OutboxEntry): Promise<void> {
  const eventId = entry.report.eventId;
  await store.update(eventId, { state: "generated", brief: makeBrief(entry.report) });
  await store.finish(eventId, "sent", new Date(now).toISOString(), null);
}

beforeEach(async () => {
  directory = await makeTemporaryDirectory();
  now = Date.UTC(2026, 10, 25, 10);
});

afterEach(async () => {
  for (const store of openStores.splice(0)) await store.close();
  await directory.remove();
});

describe("a sent report does not stay on disk", () => {
  it("erases its text, session id and directory from the snapshot and the journal once it is sent", async () => {
    const store = await openStore();
    const entry = privateEntry(1);
    await store.accept(entry);
    expect(await marksOf(1)).toHaveLength(3);
    await sendAndFinish(store, entry);
    expect(await marksOf(1)).toEqual([]);
    // Its id is still remembered: a resend of the same turn is a duplicate, not a second call.
    expect(await store.accept(privateEntry(1))).toBe("duplicate");
    expect(await onDisk()).toContain("evt_0001");
  });

  it("keeps a report that still waits, whole, across the erasure and a restart", async () => {
    const store = await openStore();
    const [sent, waiting] = [privateEntry(1), privateEntry(2)];
    await store.accept(sent);
    await store.accept(waiting);
    await sendAndFinish(store, sent);
    expect(await marksOf(1)).toEqual([]);
    expect(await marksOf(2)).toHaveLength(3);
    await store.close();
    const reopened = await openStore();
    expect(reopened.entries()).toEqual([waiting]);
  });

  it("behind a larger report that waits, erases it at the first write once the time limit has passed", async () => {
    const store = await openStore();
    const [large, sent] = [privateEntry(1, 200_000), privateEntry(2)];
    await store.accept(large);
    await store.accept(sent);
    await sendAndFinish(store, sent);
    // Rewriting the large waiting report for a small sent one would cost more than it erases: not yet.
    expect(await marksOf(2)).toHaveLength(3);
    now += ERASE_FINISHED_REPORTS_WITHIN_MS - 1;
    await store.update(large.report.eventId, { attempts: 1 });
    expect(await marksOf(2)).toHaveLength(3);
    now += 1;
    await store.update(large.report.eventId, { attempts: 2 });
    expect(await marksOf(2)).toEqual([]);
    expect(await marksOf(1)).toHaveLength(3);
  });

  it("behind a smaller report that waits, erases at once: the rewrite costs less than what it erases", async () => {
    const store = await openStore();
    const [small, sent] = [privateEntry(1, 10), privateEntry(2, 20_000)];
    await store.accept(small);
    await store.accept(sent);
    await sendAndFinish(store, sent);
    expect(await marksOf(2)).toEqual([]);
    expect(await marksOf(1)).toHaveLength(3);
  });
});
