import { describe, expect, it } from "vitest";
import {
  AgentCompletionPayload,
  DaemonConfig,
  DaemonEventPost,
  DaemonTrackerReportPost,
  ReportRequest,
} from "../src/index.js";

const claudeStop = {
  session_id: "9f1c2d4e-0000-4000-8000-000000000001",
  transcript_path: "/home/u/.claude/projects/-home-u-app/9f1c2d4e.jsonl",
  cwd: "/home/u/app",
  prompt_id: "p-1",
  permission_mode: "default",
  effort: "medium",
  hook_event_name: "Stop",
  stop_hook_active: false,
  last_assistant_message: "Done: tests pass.",
  background_tasks: [],
  session_crons: [],
};

describe("agent completion payload", () => {
  it("accepts Claude Code's and Codex's Stop payloads and keeps unknown fields", () => {
    const parsed = AgentCompletionPayload.parse(claudeStop);
    expect(parsed.permission_mode).toBe("default");
    const codex = AgentCompletionPayload.parse({
      session_id: "019a-thread",
      turn_id: "t-1",
      transcript_path: null,
      cwd: "/w",
      hook_event_name: "Stop",
      model: "gpt-5",
      permission_mode: "default",
      stop_hook_active: false,
      last_assistant_message: null,
    });
    expect(codex.turn_id).toBe("t-1");
  });

  it("rejects a payload without session_id or cwd", () => {
    const { session_id: _s, ...noSession } = claudeStop;
    expect(AgentCompletionPayload.safeParse(noSession).success).toBe(false);
    expect(AgentCompletionPayload.safeParse({ ...claudeStop, cwd: 7 }).success).toBe(false);
  });
});

describe("report intake", () => {
  const report = { source: "claude-code", sessionId: "s", turnId: "p-1", cwd: "/w", text: "Done." };

  it("accepts the normalised report the hook sends", () => {
    expect(ReportRequest.parse(report)).toEqual(report);
    expect(
      ReportRequest.parse({ ...report, occurredAt: "2026-11-22T10:00:00.000Z" }).occurredAt,
    ).toBeDefined();
  });

  it.each([
    [{ ...report, source: "tracker" }, "tracker reports come from the tracker, not the hook"],
    [{ ...report, sessionId: "" }, "empty session"],
    [{ ...report, text: undefined }, "missing text"],
    [{ ...report, extra: 1 }, "unknown field"],
    [{ ...report, occurredAt: "yesterday" }, "bad time"],
    [{ ...report, sessionId: "s".repeat(201) }, "over-long session id"],
  ])("rejects %j (%s)", (body, _reason) => {
    expect(ReportRequest.safeParse(body).success).toBe(false);
  });
});

describe("daemon configuration file", () => {
  it("defaults localPort to 8790 and keeps unknown keys", () => {
    const parsed = DaemonConfig.parse({ futureSetting: true });
    expect(parsed.localPort).toBe(8790);
    expect((parsed as Record<string, unknown>).futureSetting).toBe(true);
  });

  it("rejects a bad port and a malformed key, naming the field", () => {
    const bad = DaemonConfig.safeParse({ localPort: "eighty" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["localPort"]);
    const badKey = DaemonConfig.safeParse({ e2e: { key: "nope" } });
    expect(badKey.error?.issues[0]?.path).toEqual(["e2e", "key"]);
  });

  it("reads a malformed llm.primary without failing (it counts as not configured)", () => {
    expect(DaemonConfig.safeParse({ llm: { primary: { baseUrl: 3 } } }).success).toBe(true);
  });
});

describe("daemon to relay posts", () => {
  const post = {
    eventId: "evt_0123",
    source: "codex",
    occurredAt: "2026-11-22T10:00:00Z",
    sealed: "e2e1.a.b.c",
  };

  it("carries routing plaintext and the sealed payload only", () => {
    expect(DaemonEventPost.parse(post)).toEqual(post);
    expect(DaemonEventPost.safeParse({ ...post, sealed: "plaintext" }).success).toBe(false);
    expect(DaemonEventPost.safeParse({ ...post, eventId: "a/b" }).success).toBe(false);
  });

  it("needs the task id for a tracker report", () => {
    expect(DaemonTrackerReportPost.safeParse({ ...post, source: "tracker" }).success).toBe(false);
    expect(DaemonTrackerReportPost.safeParse({ ...post, source: "tracker", taskId: "t1" }).success).toBe(
      true,
    );
  });
});
