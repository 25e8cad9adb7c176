import { ReportRequest } from "@ringback/protocol";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { homeWithDaemon } from "./support/fake-daemon.js";
import { placeTranscript, readPayload, stdinFor } from "./support/fixtures.js";
import { assertBundleBuilt, hookEnv, runAgentHook, runBundle } from "./support/hook-process.js";
import { expectSignedWithoutTheKey } from "./support/signed-request.js";

beforeAll(assertBundleBuilt);

describe("ringback-hook reports a finished turn to the daemon", () => {
  it("posts a Claude Code Stop payload to /report with the local key and no Origin", async () => {
    await using setup = await homeWithDaemon();
    const { home, daemon } = setup;
    const payload = await readPayload("claude-code-stop");
    payload.transcript_path = await placeTranscript("claude-code-transcript", home.path);

    const result = await runAgentHook("claude-code", payload, hookEnv(home.path));

    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(daemon.requests).toHaveLength(1);
    const [request] = daemon.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/report");
    expectSignedWithoutTheKey(request);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.host).toBe(`127.0.0.1:${daemon.port}`);
    expect(request?.headers.origin).toBeUndefined();
    const report = ReportRequest.parse(JSON.parse(request?.body ?? ""));
    expect(report).toEqual({
      source: "claude-code",
      sessionId: payload.session_id,
      turnId: payload.prompt_id,
      cwd: payload.cwd,
      text: payload.last_assistant_message,
      transcriptPath: payload.transcript_path,
      occurredAt: expect.any(String),
    });
    expect(Math.abs(Date.parse(report.occurredAt ?? "") - Date.now())).toBeLessThan(60_000);
  });

  it("posts a Codex Stop payload (no trailing newline) with its turn id and model", async () => {
    await using setup = await homeWithDaemon();
    const { home, daemon } = setup;
    const payload = await readPayload("codex-stop");
    payload.transcript_path = await placeTranscript("codex-rollout", home.path);

    const result = await runAgentHook("codex", payload, hookEnv(home.path));

    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(daemon.requests).toHaveLength(1);
    expectSignedWithoutTheKey(daemon.requests[0]);
    expect(daemon.requests[0]?.headers.origin).toBeUndefined();
    expect(ReportRequest.parse(JSON.parse(daemon.requests[0]?.body ?? ""))).toEqual({
      source: "codex",
      sessionId: payload.session_id,
      turnId: payload.turn_id,
      cwd: payload.cwd,
      text: payload.last_assistant_message,
      transcriptPath: payload.transcript_path,
      occurredAt: expect.any(String),
      model: payload.model,
    });
  });

  it("uses the hook's own directory when the payload's cwd is empty", async () => {
    await using setup = await homeWithDaemon();
    const { home, daemon } = setup;
    const payload = { ...(await readPayload("claude-code-stop")), cwd: "", transcript_path: null };

    await runBundle({
      args: ["claude-code"],
      stdin: stdinFor("claude-code", payload),
      env: hookEnv(home.path),
      cwd: home.path,
    });

    const report = ReportRequest.parse(JSON.parse(daemon.requests[0]?.body ?? ""));
    expect(report.cwd).toBe(home.path);
    expect(report.transcriptPath).toBeUndefined();
  });

  it("--dry-run prints the report it would send and posts nothing", async () => {
    await using setup = await homeWithDaemon();
    const { home, daemon } = setup;
    const payload = await readPayload("codex-stop");
    payload.transcript_path = await placeTranscript("codex-rollout", home.path);

    const result = await runAgentHook("codex", payload, hookEnv(home.path), "--dry-run");

    expect(result.code).toBe(0);
    expect(daemon.requests).toHaveLength(0);
    const printed = ReportRequest.parse(JSON.parse(result.stdout));
    expect(printed).toMatchObject({
      source: "codex",
      sessionId: payload.session_id,
      text: payload.last_assistant_message,
    });
  });

  it("--dry-run says on stderr why a turn would not be reported", async () => {
    await using home = await makeTemporaryDirectory();
    const payload = { ...(await readPayload("claude-code-stop")), stop_hook_active: true };

    const result = await runAgentHook("claude-code", payload, hookEnv(home.path), "--dry-run");

    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toContain("stop_hook_active");
  });

  it("says when debugging that the daemon took the report", async () => {
    await using setup = await homeWithDaemon();
    const { home, daemon } = setup;
    const payload = { ...(await readPayload("claude-code-stop")), transcript_path: null };

    const result = await runAgentHook(
      "claude-code",
      payload,
      hookEnv(home.path, { RINGBACK_HOOK_DEBUG: "1" }),
    );

    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toBe(
      `ringback-hook: sent: the daemon on 127.0.0.1:${daemon.port} took the report (202) and will ring your devices\n`,
    );
    expect(daemon.requests).toHaveLength(1);
  });

  it("prints its version", async () => {
    await using home = await makeTemporaryDirectory();
    const result = await runBundle({ args: ["--version"], env: hookEnv(home.path) });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("prints its usage for --help, and on stderr only for a missing or unknown command", async () => {
    await using home = await makeTemporaryDirectory();
    for (const flag of ["--help", "-h"]) {
      const help = await runBundle({ args: [flag], env: hookEnv(home.path) });
      expect(help).toMatchObject({ code: 0, stderr: "" });
      expect(help.stdout).toMatch(/^usage: ringback-hook <claude-code\|codex> \[--dry-run\]\n/);
      expect(help.stdout).toContain("ringback-hook install");
      expect(help.stdout).toContain("add or remove the Stop and PermissionRequest hooks");
      expect(help.stdout).toContain("nothing ever allows by default");
      expect(help.stdout).toContain("RINGBACK_HOOK_DEBUG=1");
    }
    // A typo fails where a person sees it (exit 1), and never blocks the agent: exit 2 would block its stop.
    const missing = await runBundle({ args: [], env: hookEnv(home.path) });
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toMatch(/^ringback-hook: no command given\nusage: ringback-hook /);
    const unknown = await runBundle({ args: ["claude"], env: hookEnv(home.path) });
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toMatch(/^ringback-hook: unknown command "claude"\nusage: ringback-hook /);
  });
});
