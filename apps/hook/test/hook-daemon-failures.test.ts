import { spawn } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { closedPort, startFakeDaemon } from "./support/fake-daemon.js";
import { readPayload, stdinFor } from "./support/fixtures.js";
import {
  assertBundleBuilt,
  HOOK_BUNDLE,
  hookEnv,
  runBundle,
  writeRingbackHome,
} from "./support/hook-process.js";
import { makeTempDir } from "./support/temp-dir.js";

beforeAll(assertBundleBuilt);

async function claudeStdin(): Promise<string> {
  const payload = { ...(await readPayload("claude-code-stop")), transcript_path: null };
  return stdinFor("claude-code", payload);
}

describe("ringback-hook exits 0 with nothing on stdout whatever the daemon does", () => {
  it("when the daemon is not running", async () => {
    await using home = await makeTempDir();
    await writeRingbackHome(join(home.path, ".ringback"), await closedPort());
    const result = await runBundle({
      args: ["claude-code"],
      stdin: await claudeStdin(),
      env: hookEnv(home.path),
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
  });

  it("when the daemon never answers (gives up within its budget)", async () => {
    await using home = await makeTempDir();
    await using daemon = await startFakeDaemon("hang");
    await writeRingbackHome(join(home.path, ".ringback"), daemon.port);
    const result = await runBundle({
      args: ["claude-code"],
      stdin: await claudeStdin(),
      env: hookEnv(home.path),
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(daemon.requests).toHaveLength(1);
  }, 15_000);

  it("when the daemon answers 500", async () => {
    await using home = await makeTempDir();
    await using daemon = await startFakeDaemon(500);
    await writeRingbackHome(join(home.path, ".ringback"), daemon.port);
    const result = await runBundle({
      args: ["claude-code"],
      stdin: await claudeStdin(),
      env: hookEnv(home.path, { RINGBACK_HOOK_DEBUG: "1" }),
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(daemon.requests).toHaveLength(1);
    expect(result.stderr).toContain("answered 500");
  });

  it("when the daemon has never run (no local-api.key), without posting", async () => {
    await using home = await makeTempDir();
    await using daemon = await startFakeDaemon(202);
    const result = await runBundle({
      args: ["claude-code"],
      stdin: await claudeStdin(),
      env: hookEnv(home.path, { RINGBACK_HOME: join(home.path, "never-ran") }),
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(daemon.requests).toHaveLength(0);
  });

  it("never prints the local key, even when debugging", async () => {
    await using home = await makeTempDir();
    await using daemon = await startFakeDaemon(401);
    await writeRingbackHome(join(home.path, ".ringback"), daemon.port);
    const result = await runBundle({
      args: ["claude-code"],
      stdin: await claudeStdin(),
      env: hookEnv(home.path, { RINGBACK_HOOK_DEBUG: "1" }),
    });
    expect(result.stderr).toContain("answered 401");
    expect(`${result.stdout}${result.stderr}`).not.toContain("rb-local-test-key");
  });

  it("when the agent never closes stdin (ends within its budget)", async () => {
    await using home = await makeTempDir();
    const child = spawn(process.execPath, [HOOK_BUNDLE, "codex"], {
      env: hookEnv(home.path),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stdin.write('{"session_id":"s","cwd":"/tmp"');
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(stdout).toBe("");
  }, 15_000);
});
