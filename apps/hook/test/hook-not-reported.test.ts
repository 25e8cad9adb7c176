import { makeTemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { startFakeDaemon } from "./support/fake-daemon.js";
import { type Payload, placeTranscript, readPayload, stdinFor } from "./support/fixtures.js";
import { assertBundleBuilt, hookEnv, runBundle, writeRingbackHome } from "./support/hook-process.js";

beforeAll(assertBundleBuilt);

type Agent = "claude-code" | "codex";

/** Runs the hook against a live fake daemon; returns what the agent and the daemon saw. */
async function runAgainstDaemon(args: string[], stdin: string, extraEnv: NodeJS.ProcessEnv = {}) {
  await using home = await makeTemporaryDirectory();
  await using daemon = await startFakeDaemon(202);
  await writeRingbackHome(`${home.path}/.ringback`, daemon.port);
  const result = await runBundle({ args, stdin, env: hookEnv(home.path, extraEnv) });
  return { ...result, requests: daemon.requests.length };
}

async function payloadWithRollout(agent: Agent, directory: string): Promise<Payload> {
  const payload = await readPayload(agent === "claude-code" ? "claude-code-stop" : "codex-stop");
  payload.transcript_path = await placeTranscript(
    agent === "claude-code" ? "claude-code-transcript" : "codex-rollout",
    directory,
  );
  return payload;
}

describe("turns ringback-hook does not report, exiting 0 with nothing on stdout", () => {
  it.each<Agent>(["claude-code", "codex"])("%s: stop_hook_active is true", async (agent) => {
    await using transcripts = await makeTemporaryDirectory();
    const payload = { ...(await payloadWithRollout(agent, transcripts.path)), stop_hook_active: true };
    const seen = await runAgainstDaemon([agent], stdinFor(agent, payload));
    expect(seen).toMatchObject({ code: 0, stdout: "", requests: 0 });
  });

  it.each([
    ["transcript_path is null", null],
    ["transcript_path is missing", undefined],
    ["transcript_path names no file", "/nonexistent/rollout-2026-11-22T21-04-11-x.jsonl"],
  ])("codex: %s (an internal turn without a rollout file)", async (_name, transcriptPath) => {
    const payload: Payload = { ...(await readPayload("codex-stop")), transcript_path: transcriptPath };
    if (transcriptPath === undefined) delete payload.transcript_path;
    const seen = await runAgainstDaemon(["codex"], stdinFor("codex", payload));
    expect(seen).toMatchObject({ code: 0, stdout: "", requests: 0 });
  });

  it.each([
    ["claude-code", "MULTICA_TASK_ID"],
    ["codex", "MULTICA_TASK_ID"],
    ["claude-code", "MULTICA_ISSUE_ID"],
    ["codex", "MULTICA_ISSUE_ID"],
  ] as const)("%s inside a tracker task (%s set)", async (agent, variable) => {
    await using transcripts = await makeTemporaryDirectory();
    const payload = await payloadWithRollout(agent, transcripts.path);
    const seen = await runAgainstDaemon([agent], stdinFor(agent, payload), { [variable]: "task-4f2a" });
    expect(seen).toMatchObject({ code: 0, stdout: "", requests: 0 });
  });

  it.each([
    ["garbage", "this is not json {"],
    ["empty input", ""],
    ["a JSON array", "[1,2,3]"],
    ["no session_id", JSON.stringify({ cwd: "/tmp", last_assistant_message: "hi" })],
    [
      "a non-boolean stop_hook_active",
      JSON.stringify({ session_id: "s", cwd: "/tmp", stop_hook_active: "no" }),
    ],
  ])("stdin holds %s", async (_name, stdin) => {
    const seen = await runAgainstDaemon(["claude-code"], stdin);
    expect(seen).toMatchObject({ code: 0, stdout: "", requests: 0 });
  });

  it("says why on stderr when RINGBACK_HOOK_DEBUG=1, and only then", async () => {
    const payload = { ...(await readPayload("codex-stop")), transcript_path: null };
    const quiet = await runAgainstDaemon(["codex"], stdinFor("codex", payload));
    const debug = await runAgainstDaemon(["codex"], stdinFor("codex", payload), { RINGBACK_HOOK_DEBUG: "1" });
    expect(quiet.stderr).toBe("");
    expect(debug).toMatchObject({ code: 0, stdout: "", requests: 0 });
    expect(debug.stderr).toContain("rollout");
  });
});

describe("a mistyped ringback-hook command", () => {
  it("exits 1 (an error the agent logs and passes, never 2, which blocks it) with the usage on stderr", async () => {
    const seen = await runAgainstDaemon(
      ["claude"],
      stdinFor("claude-code", await readPayload("claude-code-stop")),
    );
    expect(seen).toMatchObject({ code: 1, stdout: "", requests: 0 });
    expect(seen.stderr).toContain("usage: ringback-hook");
  });
});
