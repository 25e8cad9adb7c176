import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { Report } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SESSIONS_FILE } from "../src/runtime/files/sessions-file.js";
import { type InProcessDaemon, startInProcessDaemon } from "./helpers/in-process-daemon.js";

let daemon: InProcessDaemon;

beforeEach(async () => {
  daemon = await startInProcessDaemon();
});

afterEach(async () => {
  await daemon.close();
});

const request = {
  source: "claude-code",
  sessionId: "session-1",
  turnId: "prompt-1",
  cwd: "/home/user/project",
  text: "All 12 tests pass; the migration is ready.",
  transcriptPath: "/home/user/.claude/projects/x/session-1.jsonl",
  occurredAt: "2025-03-04T05:06:07+02:00",
  model: "claude-opus",
};

function post(body: unknown, query = "") {
  return daemon.request(`/report${query}`, { body });
}

function expectedEventId(source: string, sessionId: string, turn: string): string {
  return `evt_${createHash("sha256").update(`${source}\n${sessionId}\n${turn}`).digest("hex").slice(0, 32)}`;
}

describe("POST /report", () => {
  it("answers 202 {accepted:true} once the report is in the outbox, under a stable event id", async () => {
    const response = await post(request);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true });
    const [entry] = daemon.outbox.entries();
    expect(entry?.report).toEqual({
      eventId: expectedEventId("claude-code", "session-1", "prompt-1"),
      source: "claude-code",
      occurredAt: "2025-03-04T03:06:07.000Z",
      text: request.text,
      sessionId: "session-1",
      turnId: "prompt-1",
      cwd: "/home/user/project",
      model: "claude-opus",
    });
  });

  it("accepts a resend of the same turn with 202 and keeps one entry", async () => {
    expect((await post(request)).status).toBe(202);
    expect((await post({ ...request, text: "edited" })).status).toBe(202);
    expect(daemon.outbox.entries()).toHaveLength(1);
  });

  it("without a turn id, dedupes an identical resend and keeps a different text apart", async () => {
    const { turnId: _none, ...withoutTurn } = request;
    await post(withoutTurn);
    await post(withoutTurn);
    await post({ ...withoutTurn, text: "Another answer." });
    const eventIds = daemon.outbox.entries().map((entry) => entry.report.eventId);
    expect(eventIds).toEqual([
      expectedEventId("claude-code", "session-1", request.text),
      expectedEventId("claude-code", "session-1", "Another answer."),
    ]);
  });

  it("uses the time of acceptance when occurredAt is absent", async () => {
    const before = Date.now();
    const { occurredAt: _none, ...withoutTime } = request;
    await post(withoutTime);
    const occurredAt = Date.parse(daemon.outbox.entries()[0]?.report.occurredAt ?? "");
    expect(occurredAt).toBeGreaterThanOrEqual(before);
  });

  it("remembers sessionId -> cwd in sessions.json with mode 600", async () => {
    await post(request);
    await post({ ...request, source: "codex", sessionId: "thread-2", cwd: "/srv/other", turnId: "turn-1" });
    await daemon.sessions.flush();
    const path = join(daemon.dataDir, SESSIONS_FILE);
    const saved = JSON.parse(await readFile(path, "utf8"));
    expect(saved.sessions["session-1"]).toMatchObject({ cwd: "/home/user/project", source: "claude-code" });
    expect(saved.sessions["thread-2"]).toMatchObject({ cwd: "/srv/other", source: "codex" });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("?dryRun=1 echoes the normalised report with 200 and queues nothing", async () => {
    const response = await post(request, "?dryRun=1");
    expect(response.status).toBe(200);
    const { report } = (await response.json()) as { report: unknown };
    expect(Report.parse(report)).toMatchObject({
      eventId: expectedEventId("claude-code", "session-1", "prompt-1"),
      occurredAt: "2025-03-04T03:06:07.000Z",
    });
    expect(daemon.outbox.entries()).toHaveLength(0);
    expect(daemon.sessions.get("session-1")).toBeUndefined();
  });

  it.each([
    ["a missing sessionId", { ...request, sessionId: undefined }, "sessionId"],
    ["an unknown source", { ...request, source: "cursor" }, "source"],
    ["an unknown field", { ...request, extra: true }, "body"],
    ["a bad occurredAt", { ...request, occurredAt: "yesterday" }, "occurredAt"],
    ["a JSON array", [request], "body"],
  ])("refuses %s with 400 invalid_request naming the field", async (_label, body, field) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("invalid_request");
    expect(error.message.startsWith(field)).toBe(true);
    expect(daemon.outbox.entries()).toHaveLength(0);
  });
});
