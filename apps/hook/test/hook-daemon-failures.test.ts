import { join } from "node:path";
import { freePort, makeTemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { homeWithDaemon, startFakeDaemon } from "./support/fake-daemon.js";
import { readPayload, stdinFor } from "./support/fixtures.js";
import { assertBundleBuilt, hookEnv, runBundle, writeRingbackHome } from "./support/hook-process.js";
import { expectSignedWithoutTheKey } from "./support/signed-request.js";

beforeAll(assertBundleBuilt);

async function claudeStdin(): Promise<string> {
  const payload = { ...(await readPayload("claude-code-stop")), transcript_path: null };
  return stdinFor("claude-code", payload);
}

/** A Claude Code turn ends with the hook debugging, its home's daemon.json naming the daemon of `home`. */
async function debuggingHook(home: string, env: NodeJS.ProcessEnv = {}) {
  return runBundle({
    args: ["claude-code"],
    stdin: await claudeStdin(),
    env: hookEnv(home, { RINGBACK_HOOK_DEBUG: "1", ...env }),
  });
}

describe("ringback-hook exits 0 with nothing on stdout whatever the daemon does", () => {
  it("when the daemon is not running, and says how to start it when debugging", async () => {
    await using home = await makeTemporaryDirectory();
    const port = await freePort();
    await writeRingbackHome(join(home.path, ".ringback"), port);
    const silent = await runBundle({
      args: ["claude-code"],
      stdin: await claudeStdin(),
      env: hookEnv(home.path),
    });
    expect(silent).toEqual({ code: 0, signal: null, stdout: "", stderr: "" });

    const debugging = await debuggingHook(home.path);
    expect(debugging).toMatchObject({ code: 0, stdout: "" });
    expect(debugging.stderr).toBe(
      `ringback-hook: not sent: the daemon is not running on 127.0.0.1:${port}: start it with \`ringback run\` (or \`pnpm start\` in a clone)\n`,
    );
  });

  it("when the daemon never answers (gives up within its budget)", async () => {
    await using setup = await homeWithDaemon("hang");
    const { home, daemon } = setup;
    const result = await debuggingHook(home.path);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toBe(
      `ringback-hook: not sent: the daemon on 127.0.0.1:${daemon.port} did not answer within the hook's 5 s budget: see the daemon's log, or run \`ringback doctor\`\n`,
    );
    expect(daemon.requests).toHaveLength(1);
  });

  it("when the daemon answers 500", async () => {
    await using setup = await homeWithDaemon(500);
    const { home, daemon } = setup;
    const result = await debuggingHook(home.path);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(daemon.requests).toHaveLength(1);
    // The fake daemon's error body is {"error":{"code":"internal","message":"x"}}.
    expect(result.stderr).toBe(
      `ringback-hook: not sent: the daemon on 127.0.0.1:${daemon.port} answered 500 internal: x: see the daemon's log, or run \`ringback doctor\`\n`,
    );
  });

  it("when the daemon has never run (no local-api.key), without posting", async () => {
    await using home = await makeTemporaryDirectory();
    await using daemon = await startFakeDaemon(202);
    const dataDir = join(home.path, "never-ran");
    const result = await debuggingHook(home.path, { RINGBACK_HOME: dataDir });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toBe(
      `ringback-hook: not sent: no local-api.key in ${dataDir}, so no daemon has run with this data directory: start it with \`ringback run\` (or \`pnpm start\` in a clone)\n`,
    );
    expect(daemon.requests).toHaveLength(0);
  });

  it("never prints the local key, even when debugging", async () => {
    await using setup = await homeWithDaemon(401);
    const { home } = setup;
    const result = await debuggingHook(home.path);
    expect(result.stderr).toContain(
      `answered 401 internal: x (the key in ${home.path}/.ringback/local-api.key`,
    );
    expect(`${result.stdout}${result.stderr}`).not.toContain("rb-local-test-key");
  });

  it("when what answers does not prove it is the daemon: an older one refusing the signed form, or a stranger", async () => {
    for (const status of [401, 202]) {
      await using setup = await homeWithDaemon(status, { proves: false });
      const { home, daemon } = setup;
      const result = await debuggingHook(home.path);
      expect(result).toMatchObject({ code: 0, stdout: "" });
      expect(result.stderr).toMatch(
        new RegExp(
          `^ringback-hook: not proven, so maybe not sent: what answered on 127\\.0\\.0\\.1:${daemon.port} \\(${status}[^)]*\\) did not prove it is your Ringback daemon: a daemon older than this hook \\(update it\\)`,
        ),
      );
      expectSignedWithoutTheKey(daemon.requests[0]);
    }
  });

  it("when the agent never closes stdin (ends within its budget)", async () => {
    await using home = await makeTemporaryDirectory();
    // Written, never ended: the agent keeps its end of the pipe open.
    const result = await runBundle({
      args: ["codex"],
      stdin: (stdin) => {
        stdin.write('{"session_id":"s","cwd":"/tmp"');
      },
      env: hookEnv(home.path),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
  });
});
