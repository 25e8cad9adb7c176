import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { OUTBOX_JOURNAL_FILE, OUTBOX_SNAPSHOT_FILE } from "@ringback/outbox";
import { eventually } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DaemonProcess, postReport, readLocalKey } from "./helpers/daemon-process.js";
import { makeRelayedHome, type RelayedHome } from "./helpers/relayed-home.js";

/**
 * What a report says (the agent's words, its session, the project's directory) is needed until the report is sent;
 * after that only the relay's copy, sealed, is. Someone who reads the data dir later (a backup, another account on
 * the computer with the files copied, a stolen disk) must not find it in the outbox.
 */
let home: RelayedHome;
let daemon: DaemonProcess;

beforeAll(async () => {
  home = await makeRelayedHome();
  await home.link();
  daemon = await home.startDaemon();
});

afterAll(async () => {
  await home?.[Symbol.asyncDispose]();
});

/**
 * The outbox's snapshot and journal as one consistent pair, or null while the daemon is between them: a compaction
 * writes a new snapshot, then starts a new journal, so two reads can straddle it (an old snapshot with a new, empty
 * journal holds nothing of the report, nor of its having been sent). The journal's first line names its generation.
 */
async function outboxFiles(): Promise<string | null> {
  const read = (name: string) => readFile(join(home.path, name), "utf8").catch(() => "");
  const journal = await read(OUTBOX_JOURNAL_FILE);
  const snapshot = await read(OUTBOX_SNAPSHOT_FILE);
  const generationOf = (text: string) => /"generation":(\d+)/.exec(text)?.[1] ?? null;
  if (generationOf(snapshot) !== generationOf(journal)) return null;
  return `${snapshot}\n${journal}`;
}

describe("a sent report", () => {
  it("leaves neither its text, nor its session id, nor its directory in the outbox's files", async () => {
    const report = {
      source: "claude-code",
      sessionId: "9c2e-private-session",
      turnId: "turn-1",
      cwd: join(home.path, "acme-merger-due-diligence"),
      text: "Drafted the acquisition memo; the price is 41 million.",
    };
    expect((await postReport(daemon, await readLocalKey(home.path), report)).status).toBe(202);
    // While it waits the outbox must keep it (a crash must not lose it).
    const sent = await eventually(
      () => home.relay.posts.find((post) => post.answeredWith === 201 || post.answeredWith === 202),
      {
        what: "the report's post to the relay",
        on: home.relay.changes,
      },
    );
    expect(sent.body.sealed).not.toContain("41 million");
    const leftovers = await eventually(
      async () => {
        const files = await outboxFiles();
        if (files === null) return null;
        const found = [report.text, report.sessionId, report.cwd].filter((mark) => files.includes(mark));
        return found.length === 0 ? files : null;
      },
      { what: "the outbox's files to hold nothing of the sent report" },
    );
    expect(leftovers).toContain(sent.body.eventId);
  });
});
