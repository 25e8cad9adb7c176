import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sealReply } from "@ringback/client";
import { aad, type E2eKey, generateKey, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  CANNOT_DECRYPT_REPLY,
  type DaemonToRelayMessage,
  REPLY_STDERR_TAIL_CHARS,
  ReplyErrorPlaintext,
} from "@ringback/protocol";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionsFile } from "../src/runtime/files/sessions-file.js";
import { ReplayGuard, SEEN_REQUESTS_FILE } from "../src/runtime/replay-guard.js";
import { EventSessions } from "../src/runtime/replies/event-sessions.js";
import { INTERRUPTED_REASON, REPLIES_FILE, RepliesFile } from "../src/runtime/replies/replies-file.js";
import { ReplyRunner } from "../src/runtime/replies/reply-runner.js";
import { type FakeAgent, makeFakeAgent } from "./helpers/fake-agent.js";

type ReplyStatusMessage = Extract<DaemonToRelayMessage, { type: "reply-status" }>;

let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
/** Files that write in the background: flushed before the directory goes. */
const eventSessionFiles: EventSessions[] = [];
let dataDir: string;
let project: string;
let agent: FakeAgent;
let key: E2eKey;
let statuses: ReplyStatusMessage[];
let runners: ReplyRunner[];

beforeEach(async () => {
  directory = await makeTemporaryDirectory();
  dataDir = join(directory.path, "home");
  project = join(directory.path, "project");
  await mkdir(dataDir, { mode: 0o700 });
  await mkdir(project);
  await mkdir(join(directory.path, "agent"));
  agent = await makeFakeAgent(join(directory.path, "agent"));
  key = generateKey();
  statuses = [];
  runners = [];
  logLines.length = 0;
});

afterEach(async () => {
  for (const runner of runners) await runner.stop();
  for (const file of eventSessionFiles.splice(0)) await file.flush();
  await directory.remove();
});

/** The computer's relay device id; replies are sealed for it. */
const COMPUTER_ID = "dev_laptop";

/** What the runner under test wrote to the daemon's log. */
const logLines: string[] = [];

async function startRunner(options: { runTimeoutMs?: number; now?: () => Date } = {}) {
  const log = (line: string) => {
    logLines.push(line);
  };
  const eventSessions = await EventSessions.load(dataDir, log);
  eventSessionFiles.push(eventSessions);
  const runner = new ReplyRunner({
    replies: await RepliesFile.load(dataDir, log, new Date()),
    eventSessions,
    sessions: await SessionsFile.load(dataDir, log),
    key: () => key,
    computerId: () => COMPUTER_ID,
    guard: await ReplayGuard.load(dataDir, log, { now: options.now }),
    env: { PATH: process.env.PATH, RINGBACK_CLAUDE_BIN: agent.bin, RINGBACK_CODEX_BIN: agent.bin },
    log,
    report: (status) => {
      if (status.type === "reply-status") statuses.push(status);
    },
    ...options,
  });
  runners.push(runner);
  return { runner, eventSessions };
}

function rememberEvent(
  eventSessions: EventSessions,
  eventId: string,
  source: "claude-code" | "codex" = "claude-code",
  cwd = project,
) {
  eventSessions.remember({
    eventId,
    source,
    occurredAt: new Date().toISOString(),
    text: "done",
    sessionId: `session-of-${eventId}`,
    cwd,
  });
}

/** A reply as the relay passes it on, sealed by the client library for this computer at `sentAt`. */
async function reply(
  replyId: string,
  eventId: string,
  text: string,
  sealingKey: E2eKey = key,
  options: { computerId?: string; sentAt?: Date } = {},
) {
  const computerId = options.computerId ?? COMPUTER_ID;
  const { sealed } = await sealReply(sealingKey, { computerId, eventId, replyId, text }, options.sentAt);
  return { type: "reply" as const, replyId, eventId, sealed };
}

async function sealedReason(status: ReplyStatusMessage | undefined): Promise<string> {
  if (!status?.sealedReason) throw new Error("no sealed reason");
  const opened = await openJson(key, aad.replyError(status.replyId), status.sealedReason);
  return ReplyErrorPlaintext.parse(opened).reason;
}

describe("replies resume the agent session", () => {
  it("resumes a Claude Code session in its directory with the reply and reports delivered on exit 0", async () => {
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    await runner.handle(await reply("reply-1", "evt_1", "Keep the old API for a month."));
    expect(await agent.runs()).toEqual([
      { argv: ["--resume", "session-of-evt_1", "-p", "Keep the old API for a month."], cwd: project },
    ]);
    expect(statuses).toEqual([{ type: "reply-status", replyId: "reply-1", status: "delivered" }]);
  });

  it("resumes a Codex thread with exec resume, skipping the git check only outside a git repository", async () => {
    const { runner, eventSessions } = await startRunner();
    const repository = join(directory.path, "repository");
    await mkdir(join(repository, ".git"), { recursive: true });
    await mkdir(join(repository, "src"));
    rememberEvent(eventSessions, "evt_plain", "codex");
    rememberEvent(eventSessions, "evt_repo", "codex", join(repository, "src"));
    await runner.handle(await reply("reply-plain", "evt_plain", "Ship it."));
    await runner.handle(await reply("reply-repo", "evt_repo", "Ship it too."));
    expect(await agent.runs()).toEqual([
      {
        argv: ["exec", "--skip-git-repo-check", "resume", "session-of-evt_plain", "Ship it."],
        cwd: project,
      },
      { argv: ["exec", "resume", "session-of-evt_repo", "Ship it too."], cwd: join(repository, "src") },
    ]);
  });

  it("passes a reply that starts with '-' as the prompt, never as an option", async () => {
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    await runner.handle(await reply("reply-1", "evt_1", "--dangerously-skip-permissions please"));
    expect((await agent.runs())[0]?.argv).toEqual([
      "--resume",
      "session-of-evt_1",
      "-p",
      " --dangerously-skip-permissions please",
    ]);
  });
});

describe("at most once per reply", () => {
  it("records the reply as running before the agent starts and ignores a resend while it runs", async () => {
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    await agent.behave({ sleepMs: 800 });
    const message = await reply("reply-1", "evt_1", "Go on.");
    const first = runner.handle(message);
    await eventually(async () => (await agent.runs()).length === 1);
    const file = JSON.parse(await readFile(join(dataDir, REPLIES_FILE), "utf8"));
    expect(file.replies["reply-1"]).toMatchObject({ eventId: "evt_1", state: "running" });
    expect((await stat(join(dataDir, REPLIES_FILE))).mode & 0o777).toBe(0o600);
    await runner.handle(message);
    expect(statuses).toEqual([]);
    await first;
    expect(await agent.runs()).toHaveLength(1);
    expect(statuses).toEqual([{ type: "reply-status", replyId: "reply-1", status: "delivered" }]);
  });

  it("answers a resend of a finished reply with its final status again, without running it", async () => {
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    const message = await reply("reply-1", "evt_1", "Go on.");
    await runner.handle(message);
    await runner.handle(message);
    expect(await agent.runs()).toHaveLength(1);
    expect(statuses.map((status) => status.status)).toEqual(["delivered", "delivered"]);
  });

  it("reports a reply found running at start as interrupted by a daemon restart, and never reruns it", async () => {
    await writeFile(
      join(dataDir, REPLIES_FILE),
      JSON.stringify({
        version: 1,
        replies: {
          "reply-1": {
            eventId: "evt_1",
            state: "running",
            reason: null,
            isPlaintextReason: false,
            startedAt: new Date().toISOString(),
            finishedAt: null,
          },
        },
      }),
      { mode: 0o600 },
    );
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    await runner.handle(await reply("reply-1", "evt_1", "Go on."));
    expect(await agent.runs()).toEqual([]);
    expect(statuses[0]?.status).toBe("failed");
    expect(await sealedReason(statuses[0])).toBe(INTERRUPTED_REASON);
  });

  it("stops a running agent when the daemon stops, and the reply fails as interrupted", async () => {
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    await agent.behave({ sleepMs: 20_000 });
    const handled = runner.handle(await reply("reply-1", "evt_1", "Go on."));
    await eventually(async () => (await agent.runs()).length === 1);
    await runner.stop();
    await handled;
    expect(await sealedReason(statuses[0])).toBe(INTERRUPTED_REASON);
    const file = JSON.parse(await readFile(join(dataDir, REPLIES_FILE), "utf8"));
    expect(file.replies["reply-1"].state).toBe("failed");
  });
});

describe("failed replies", () => {
  it("answers a reply sealed with another key with the plaintext reason 'cannot decrypt reply'", async () => {
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    await runner.handle(await reply("reply-1", "evt_1", "Go on.", generateKey()));
    expect(await agent.runs()).toEqual([]);
    expect(statuses).toEqual([
      { type: "reply-status", replyId: "reply-1", status: "failed", plaintextReason: CANNOT_DECRYPT_REPLY },
    ]);
  });

  it("keeps the last characters of stderr as the sealed reason when the agent exits non-zero", async () => {
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    const stderr = `${"x".repeat(3000)}THE-END`;
    await agent.behave({ stderr, exitCode: 3 });
    await runner.handle(await reply("reply-1", "evt_1", "Go on."));
    expect(statuses[0]).toMatchObject({ status: "failed", sealedReason: expect.stringMatching(/^e2e1\./) });
    expect(statuses[0]?.plaintextReason).toBeUndefined();
    const reason = await sealedReason(statuses[0]);
    expect(reason).toBe(`agent exited with code 3: ${stderr.slice(-REPLY_STDERR_TAIL_CHARS)}`);
    // The daemon's log says why, without the agent's words (its stderr may quote the person's).
    expect(logLines).toContain("reply reply-1 failed (agent exited with code 3)");
    expect(logLines.join("\n")).not.toContain("THE-END");
  });

  it("stops an agent that runs past the limit and reports it failed", async () => {
    const { runner, eventSessions } = await startRunner({ runTimeoutMs: 300 });
    rememberEvent(eventSessions, "evt_1");
    await agent.behave({ sleepMs: 20_000 });
    await runner.handle(await reply("reply-1", "evt_1", "Go on."));
    expect(statuses[0]?.status).toBe("failed");
    expect(await sealedReason(statuses[0])).toBe("stopped after 0.3 seconds");
  });

  it("fails a reply to an event this computer does not know, without running anything", async () => {
    const { runner } = await startRunner();
    await runner.handle(await reply("reply-1", "evt_unknown", "Go on."));
    expect(await agent.runs()).toEqual([]);
    expect(await sealedReason(statuses[0])).toMatch(/does not know the agent session/);
  });

  it("fails a reply whose sealed id is not its own (a replay under another id)", async () => {
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    const original = await reply("reply-1", "evt_1", "Go on.");
    await runner.handle({ ...original, replyId: "reply-2" });
    expect(await agent.runs()).toEqual([]);
    expect(statuses[0]).toMatchObject({ replyId: "reply-2", status: "failed" });
  });
});

describe("a reply is taken once, sealed for this computer, within its window", () => {
  it("refuses a copy of a reply it ran, even once replies.json no longer names it (and after a restart)", async () => {
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    const message = await reply("reply-1", "evt_1", "Go on.");
    await runner.handle(message);
    await runner.stop();
    // What the finding used: the reply has fallen out of the replies the daemon remembers by id.
    await rm(join(dataDir, REPLIES_FILE));
    const restarted = await startRunner();
    rememberEvent(restarted.eventSessions, "evt_1");
    await restarted.runner.handle(message);
    expect(await agent.runs()).toHaveLength(1);
    expect(statuses.at(-1)).toEqual({
      type: "reply-status",
      replyId: "reply-1",
      status: "failed",
      plaintextReason: expect.stringContaining("already taken"),
    });
    expect((await stat(join(dataDir, SEEN_REQUESTS_FILE))).mode & 0o777).toBe(0o600);
  });

  it("takes a reply the relay kept for a day while the computer was off, and refuses an older or a future one", async () => {
    const computerNow = new Date("2026-11-25T10:00:00.000Z");
    const { runner, eventSessions } = await startRunner({ now: () => computerNow });
    rememberEvent(eventSessions, "evt_1");
    const at = (offsetMs: number) => new Date(computerNow.getTime() + offsetMs);
    const hour = 3_600_000;
    await runner.handle(await reply("reply-day-old", "evt_1", "Go on.", key, { sentAt: at(-23 * hour) }));
    await runner.handle(await reply("reply-stale", "evt_1", "Go on.", key, { sentAt: at(-25 * hour) }));
    await runner.handle(await reply("reply-future", "evt_1", "Go on.", key, { sentAt: at(6 * 60_000) }));
    expect(await agent.runs()).toHaveLength(1);
    expect(statuses.map((status) => [status.replyId, status.status, status.plaintextReason])).toEqual([
      ["reply-day-old", "delivered", undefined],
      ["reply-stale", "failed", expect.stringContaining("too long ago")],
      ["reply-future", "failed", expect.stringContaining("ahead")],
    ]);
  });

  it("does not run a reply sealed for another computer of the account, nor one an older app sealed", async () => {
    const { runner, eventSessions } = await startRunner();
    rememberEvent(eventSessions, "evt_1");
    await runner.handle(await reply("reply-other", "evt_1", "Go on.", key, { computerId: "dev_desktop" }));
    const olderApp = await sealJson(key, aad.reply("evt_1"), { replyId: "reply-old", text: "Go on." });
    await runner.handle({ type: "reply", replyId: "reply-old", eventId: "evt_1", sealed: olderApp });
    expect(await agent.runs()).toEqual([]);
    expect(statuses.map((status) => status.plaintextReason)).toEqual([
      CANNOT_DECRYPT_REPLY,
      expect.stringContaining("older app"),
    ]);
  });
});
