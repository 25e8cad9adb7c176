import { execFileSync } from "node:child_process";
import { mkdir, open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { eventually, makeTemporaryDirectory, type ScriptedRelay } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DaemonProcess, postReport, readLocalKey } from "./helpers/daemon-process.js";
import { makeRelayedHome, type RelayedHome } from "./helpers/relayed-home.js";

/** A small tmpfs of the test's own (we are root in CI): the daemon's data dir on a disk that can really fill. */
function mountSmallDisk(path: string): string | null {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", path], { stdio: "pipe" });
    return null;
  } catch (error) {
    return `mount -t tmpfs failed (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})`;
  }
}

/** Fills the disk to the last byte; returns the filler's path (delete it to give the space back). */
async function fillDisk(directory: string): Promise<string> {
  const path = join(directory, "filler.bin");
  const file = await open(path, "w");
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) await file.write(block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    // The last partial block: byte by byte until nothing fits.
    try {
      for (;;) await file.write(Buffer.alloc(1));
    } catch {}
  } finally {
    await file.close().catch(() => undefined);
  }
  return path;
}

/** Both outbox files as they are on disk (read in this order, a compaction between the reads loses nothing). */
async function outboxText(): Promise<string> {
  const read = (name: string) => readFile(join(home, name), "utf8").catch(() => "");
  return `${await read("outbox.json")}\n${await read("outbox.journal")}`;
}

const report = (index: number) => ({
  source: "claude-code",
  sessionId: `disk-${index}`,
  turnId: `turn-${index}`,
  cwd: "/home/user/project",
  // Longer than the slack in the last page of the outbox's files, so it needs space the disk no longer has.
  text: `Turn ${index}: done, all tests pass. ${"The details of the change. ".repeat(2_000)}`,
});

let base: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let home: string;
let skipReason: string | null = null;
let relayed: RelayedHome;
let relay: ScriptedRelay;
let daemon: DaemonProcess;

beforeAll(async () => {
  base = await makeTemporaryDirectory();
  home = join(base.path, "home");
  await mkdir(home);
  skipReason = mountSmallDisk(home);
  if (skipReason && process.env.CI) throw new Error(`${skipReason}: CI runs as root and must run this test`);
  relayed = await makeRelayedHome({ path: home });
  relay = relayed.relay;
});

afterAll(async () => {
  await relayed?.[Symbol.asyncDispose]();
  if (!skipReason) execFileSync("umount", ["-l", home]);
  await base?.remove();
});

describe("the daemon's data directory on a full disk", () => {
  it("answers the hook 507 storage_full instead of a false 202, recovers when space returns, and loses nothing it accepted", async (context) => {
    if (skipReason) {
      console.log(`skipped: ${skipReason}`);
      context.skip();
    }
    await relayed.link();
    daemon = await relayed.startDaemon();
    const localKey = await readLocalKey(home);
    expect((await postReport(daemon, localKey, report(1))).status).toBe(202);
    await eventually(() => relay.delivered.size === 1, { checks: 750, on: relay.changes });

    // Sent, and its text erased from the outbox, before the disk fills: a sent report's erasure frees its bytes, and
    // one that ran after the fill would leave room for the next report (seen under load: a 202 where 507 was due).
    expect((await postReport(daemon, localKey, report(3))).status).toBe(202);
    await eventually(() => relay.delivered.size === 2, { checks: 750, on: relay.changes });
    await eventually(async () => !(await outboxText()).includes("Turn 3:"), {
      what: "report 3's text to be erased from the outbox",
    });
    const filler = await fillDisk(home);
    const refused = await postReport(daemon, localKey, report(2));
    expect(refused.status).toBe(507);
    expect(await refused.json()).toMatchObject({ error: { code: "storage_full" } });
    expect(daemon.stderr()).toMatch(/the disk is full: report \S+ was not kept/);
    // Still up and answering.
    const language = await fetch(`${daemon.url}/brief/language`, {
      headers: { authorization: `Bearer ${localKey}` },
    });
    expect(language.status).toBe(200);

    await rm(filler);
    expect((await postReport(daemon, localKey, report(2))).status).toBe(202);
    await eventually(() => relay.delivered.size === 3, { checks: 1_500, on: relay.changes });
    // A restart reads back a consistent outbox and sends nothing twice.
    await daemon.stop();
    daemon = await relayed.startDaemon();
    expect((await postReport(daemon, localKey, report(4))).status).toBe(202);
    await eventually(() => relay.delivered.size === 4, { checks: 1_500, on: relay.changes });
    expect([...relay.delivered.values()]).toEqual([1, 1, 1, 1]);
  }, 90_000);
});
