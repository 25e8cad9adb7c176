import { join } from "node:path";
import { AgentActivityPost } from "@ringback/protocol";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { homeWithDaemon, startFakeDaemon } from "./support/fake-daemon.js";
import { assertBundleBuilt, hookEnv, runAgentHook, writeRingbackHome } from "./support/hook-process.js";
import { expectSignedWithoutTheKey } from "./support/signed-request.js";

beforeAll(assertBundleBuilt);

/** The `UserPromptSubmit` payloads as the genuine CLIs write them (fakes/agent-clis records both). */
const CLAUDE_PROMPT = {
  session_id: "5d3f1c2a-1b2c-4d5e-8f90-a1b2c3d4e5f6",
  transcript_path: "/home/person/.claude/projects/-work-payments/5d3f1c2a.jsonl",
  cwd: "/work/payments",
  permission_mode: "default",
  hook_event_name: "UserPromptSubmit",
  prompt: "run the migration, secret-prompt-words",
};
const CODEX_PROMPT = {
  session_id: "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
  turn_id: "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c",
  transcript_path: "/home/person/.codex/sessions/2026/12/07/rollout-x.jsonl",
  cwd: "/work/docs",
  hook_event_name: "UserPromptSubmit",
  model: "gpt-5",
  permission_mode: "default",
  prompt: "fix the links",
};

describe("ringback-hook tells the daemon an agent started a turn", () => {
  it.each([
    ["claude-code", CLAUDE_PROMPT],
    ["codex", CODEX_PROMPT],
  ] as const)(
    "posts a %s UserPromptSubmit to /agent-activity, signed, without the prompt, and prints nothing",
    async (kind, payload) => {
      await using setup = await homeWithDaemon();

      const result = await runAgentHook(kind, payload, hookEnv(setup.home.path));

      expect(result).toMatchObject({ code: 0, stdout: "" });
      expect(setup.daemon.requests).toHaveLength(1);
      const [request] = setup.daemon.requests;
      expect(request).toMatchObject({ method: "POST", url: "/agent-activity" });
      expectSignedWithoutTheKey(request);
      expect(request?.headers.origin).toBeUndefined();
      expect(AgentActivityPost.parse(JSON.parse(request?.body ?? ""))).toEqual({
        agent: kind,
        sessionId: payload.session_id,
        cwd: payload.cwd,
        activity: "turn-started",
      });
      expect(request?.body).not.toContain(payload.prompt);
    },
  );

  it("posts nothing for a tracker task's agent (the daemon follows the task) or a Codex turn with no rollout", async () => {
    await using setup = await homeWithDaemon();

    const tracked = await runAgentHook(
      "claude-code",
      CLAUDE_PROMPT,
      hookEnv(setup.home.path, { MULTICA_TASK_ID: "task-1" }),
    );
    const internal = await runAgentHook(
      "codex",
      { ...CODEX_PROMPT, transcript_path: null },
      hookEnv(setup.home.path),
    );

    expect([tracked, internal]).toMatchObject([
      { code: 0, stdout: "" },
      { code: 0, stdout: "" },
    ]);
    expect(setup.daemon.requests).toEqual([]);
  });

  it("ends the turn's start at once with exit 0 when the daemon is down", async () => {
    await using home = await makeTemporaryDirectory();
    const stopped = await startFakeDaemon();
    await stopped[Symbol.asyncDispose]();
    await writeRingbackHome(join(home.path, ".ringback"), stopped.port);

    const result = await runAgentHook(
      "claude-code",
      CLAUDE_PROMPT,
      hookEnv(home.path, { RINGBACK_HOOK_DEBUG: "1" }),
    );

    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toContain("not posted: the daemon is not running");
  });
});
