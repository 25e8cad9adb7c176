import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { listenOnLoopback, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { requestProof } from "../src/http/local-proof/proof-message.js";
import { daemonEnv, runCli } from "./helpers/daemon-process.js";

let home: Awaited<ReturnType<typeof makeTemporaryDirectory>>;

beforeEach(async () => {
  home = await makeTemporaryDirectory();
});
afterEach(async () => {
  await home.remove();
});

/** The Stop hooks' commands in a settings file; none when the file is gone (an uninstall that emptied it). */
async function stopHookCommands(settingsFile: string): Promise<string[]> {
  const text = await readFile(settingsFile, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "{}";
    throw error;
  });
  const settings = JSON.parse(text) as {
    hooks?: { Stop?: { hooks: { command: string }[] }[] };
  };
  return (settings.hooks?.Stop ?? []).flatMap((group) => group.hooks.map((hook) => hook.command));
}

describe("ringback install / uninstall / hook", () => {
  it("lists every command in its help", async () => {
    const result = await runCli(["help"], daemonEnv(home.path));
    for (const command of ["run", "install", "uninstall", "hook", "brief-eval"]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    }
  });

  it("installs one Stop hook per agent, twice installed still once, and uninstalls it", async () => {
    const claudeHome = join(home.path, ".claude");
    const codexHome = join(home.path, ".codex");
    await mkdir(claudeHome);
    await mkdir(codexHome);
    const args = ["--claude-home", claudeHome, "--codex-home", codexHome, "--no-service"];
    for (let round = 0; round < 2; round += 1) {
      const result = await runCli(["install", ...args], daemonEnv(home.path));
      expect(result.code).toBe(0);
    }
    const claude = await stopHookCommands(join(claudeHome, "settings.json"));
    const codex = await stopHookCommands(join(codexHome, "hooks.json"));
    expect(claude).toHaveLength(1);
    expect(claude[0]).toMatch(/ringback-hook\.mjs"? claude-code$/);
    expect(codex).toHaveLength(1);
    expect(codex[0]).toMatch(/ringback-hook\.mjs"? codex$/);
    expect(await readFile(join(codexHome, "config.toml"), "utf8")).toContain("trusted_hash");

    const removed = await runCli(["uninstall", ...args], daemonEnv(home.path));
    expect(removed.code).toBe(0);
    expect(await stopHookCommands(join(claudeHome, "settings.json"))).toEqual([]);
    expect(await stopHookCommands(join(codexHome, "hooks.json"))).toEqual([]);
  });

  it("`ringback hook claude-code` reports a Stop payload to the daemon and prints nothing", async () => {
    const received: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const fakeDaemon = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        received.push({
          method: request.method ?? "",
          path: request.url ?? "",
          headers: request.headers,
          body,
        });
        response.writeHead(202, { "content-type": "application/json" }).end('{"accepted":true}');
      });
    });
    await using listening = await listenOnLoopback(fakeDaemon);
    await writeFile(join(home.path, "daemon.json"), JSON.stringify({ localPort: listening.port }), {
      mode: 0o600,
    });
    await writeFile(join(home.path, "local-api.key"), "local-key-for-tests\n", { mode: 0o600 });

    const payload = {
      session_id: "s-1",
      prompt_id: "p-1",
      cwd: home.path,
      stop_hook_active: false,
      last_assistant_message: "All done.",
    };
    // Asynchronously: the fake daemon answers from this same process.
    const result = await runCli(["hook", "claude-code"], daemonEnv(home.path), JSON.stringify(payload));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(received).toHaveLength(1);
    // Signed with the local key, which it never carries (the hook's proof, apps/daemon/src/http/local-proof).
    const [version, timestamp, nonce, proof] = String(received[0]?.headers["ringback-request-proof"]).split(
      ".",
    );
    expect(version).toBe("v1");
    const parts = { method: received[0]!.method, port: listening.port, path: received[0]!.path };
    const signed = {
      ...parts,
      timestamp: Number(timestamp),
      nonce: nonce ?? "",
      body: Buffer.from(received[0]!.body),
    };
    expect(proof).toBe(requestProof("local-key-for-tests", signed));
    expect(received[0]?.headers.authorization).toBeUndefined();
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      source: "claude-code",
      sessionId: "s-1",
      text: "All done.",
    });
  });

  it("`ringback hook` with a mistyped agent exits 1 with the usage, never 2 (which would block the agent)", async () => {
    const result = await runCli(["hook", "claude"], daemonEnv(home.path), "{}");
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toMatch(/^ringback-hook: unknown command "claude"\nusage: ringback-hook /);
  });
});
