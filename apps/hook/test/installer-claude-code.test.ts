import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ReportRequest } from "@ringback/protocol";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { homeWithDaemon, startFakeDaemon } from "./support/fake-daemon.js";
import { readGenuinePayload, readPayload, stdinFor } from "./support/fixtures.js";
import {
  assertBundleBuilt,
  HOOK_BUNDLE,
  hookEnv,
  runShellCommand,
  writeRingbackHome,
} from "./support/hook-process.js";
import { bundleCopyIn, eventCommands, expectedCommand, runInstaller } from "./support/installer.js";

beforeAll(assertBundleBuilt);

/** A user's settings with other hooks and keys, which the installer must keep as they are. */
const EXISTING_SETTINGS = {
  model: "sonnet",
  permissions: { allow: ["Bash(pnpm test:*)"], deny: [] },
  env: { FOO: "bar" },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "~/bin/check-bash.sh" }] }],
    Stop: [
      { hooks: [{ type: "command", command: "afplay /System/Library/Sounds/Glass.aiff", timeout: 5 }] },
      { matcher: "", hooks: [{ type: "command", command: "notify-send 'Claude is done'" }] },
    ],
    PermissionRequest: [
      { matcher: "Read", hooks: [{ type: "command", command: "~/bin/allow-reads.sh", timeout: 5 }] },
    ],
  },
  statusLine: { type: "command", command: "~/.claude/statusline.sh" },
};

const settingsPath = (home: string) => join(home, ".claude", "settings.json");

async function readSettings(home: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(settingsPath(home), "utf8"));
}

async function writeSettings(home: string, settings: unknown, mode = 0o644): Promise<void> {
  await mkdir(join(home, ".claude"), { recursive: true });
  await writeFile(settingsPath(home), JSON.stringify(settings, null, 4));
  await chmod(settingsPath(home), mode);
}

/** The settings with our handlers (and groups left empty by their removal) taken out. */
function withoutRingback(settings: Record<string, unknown>): unknown {
  const copy = structuredClone(settings) as { hooks?: Record<string, { hooks: { command: string }[] }[]> };
  for (const [event, groups] of Object.entries(copy.hooks ?? {})) {
    (copy.hooks ?? {})[event] = groups
      .map((group) => ({
        ...group,
        hooks: group.hooks.filter((handler) => !handler.command.includes("ringback-hook")),
      }))
      .filter((group) => group.hooks.length > 0);
    // An event only Ringback registers goes with it.
    if (copy.hooks && copy.hooks[event]?.length === 0) delete copy.hooks[event];
  }
  return copy;
}

describe("ringback-hook install: Claude Code's settings.json", () => {
  it("creates settings.json with our Stop, PermissionRequest and UserPromptSubmit hooks on a fresh machine", async () => {
    await using home = await makeTemporaryDirectory();
    const result = await runInstaller("install", home.path);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Claude Code: added the Ringback Stop hook");
    expect(result.stdout).toContain("Claude Code: added the Ringback PermissionRequest hook");
    expect(result.stdout).toContain("Claude Code: added the Ringback UserPromptSubmit hook");
    const command = expectedCommand(HOOK_BUNDLE, "claude-code");
    expect(await readSettings(home.path)).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: "command", command, timeout: 10 }] }],
        // No matcher: every tool's request; the timeout outlasts the daemon's wait for a person.
        PermissionRequest: [{ hooks: [{ type: "command", command, timeout: 330 }] }],
        // A turn's start: the fleet shows the agent working.
        UserPromptSubmit: [{ hooks: [{ type: "command", command, timeout: 10 }] }],
      },
    });
    expect((await stat(settingsPath(home.path))).mode & 0o777).toBe(0o600);
  });

  it("keeps every other key, group and handler, and the file's mode", async () => {
    await using home = await makeTemporaryDirectory();
    await writeSettings(home.path, EXISTING_SETTINGS, 0o640);
    await runInstaller("install", home.path);
    const settings = await readSettings(home.path);
    expect(withoutRingback(settings)).toEqual(EXISTING_SETTINGS);
    expect(eventCommands(settings, "Stop")).toEqual([
      "afplay /System/Library/Sounds/Glass.aiff",
      "notify-send 'Claude is done'",
      expectedCommand(HOOK_BUNDLE, "claude-code"),
    ]);
    expect(eventCommands(settings, "PermissionRequest")).toEqual([
      "~/bin/allow-reads.sh",
      expectedCommand(HOOK_BUNDLE, "claude-code"),
    ]);
    expect((await stat(settingsPath(home.path))).mode & 0o777).toBe(0o640);
  });

  it("installing again, or from another directory, leaves exactly one Ringback hook", async () => {
    await using home = await makeTemporaryDirectory();
    await using elsewhere = await makeTemporaryDirectory();
    await writeSettings(home.path, EXISTING_SETTINGS);
    await runInstaller("install", home.path);
    await runInstaller("install", home.path);
    const otherBundle = await bundleCopyIn(join(elsewhere.path, "other", "dist"));
    const result = await runInstaller("install", home.path, { bundle: otherBundle });
    expect(result.stdout).toContain("replaced the Ringback Stop hook");
    const settings = await readSettings(home.path);
    for (const event of ["Stop", "PermissionRequest", "UserPromptSubmit"] as const) {
      expect(eventCommands(settings, event).filter((command) => command.includes("ringback-hook"))).toEqual([
        expectedCommand(otherBundle, "claude-code"),
      ]);
    }
    expect(withoutRingback(settings)).toEqual(EXISTING_SETTINGS);
  });

  it("removes older Ringback hooks written in other forms, and only those", async () => {
    await using home = await makeTemporaryDirectory();
    const older: { hooks: { Stop: unknown[] } } = structuredClone(EXISTING_SETTINGS);
    older.hooks.Stop.push(
      { hooks: [{ type: "command", command: "ringback hook claude-code", timeout: 30 }] },
      { hooks: [{ type: "command", command: "node /opt/ringback/ringback-hook.mjs claude-code" }] },
      { hooks: [{ type: "command", command: "echo ringback-hooks-are-great" }] },
    );
    await writeSettings(home.path, older);
    await runInstaller("install", home.path);
    expect(eventCommands(await readSettings(home.path), "Stop")).toEqual([
      "afplay /System/Library/Sounds/Glass.aiff",
      "notify-send 'Claude is done'",
      expectedCommand(HOOK_BUNDLE, "claude-code"),
      "echo ringback-hooks-are-great",
    ]);
  });

  it("uninstall leaves the settings as they were before install", async () => {
    await using home = await makeTemporaryDirectory();
    await writeSettings(home.path, EXISTING_SETTINGS);
    await runInstaller("install", home.path);
    const result = await runInstaller("uninstall", home.path);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("removed 1 Ringback Stop hook(s)");
    expect(result.stdout).toContain("removed 1 Ringback PermissionRequest hook(s)");
    expect(result.stdout).toContain("removed 1 Ringback UserPromptSubmit hook(s)");
    expect(await readSettings(home.path)).toEqual(EXISTING_SETTINGS);
  });

  it("keeps the person's own layout byte for byte: install adds only the hooks, uninstall gives back the same file", async () => {
    await using home = await makeTemporaryDirectory();
    const ownLayout =
      '{\n    "model": "opus",\n    "permissions": {"allow": ["Bash(ls)"], "deny": []},\n    "env": { "A": "1" },\n    "theme": "dark"\n}\n';
    await mkdir(join(home.path, ".claude"), { recursive: true });
    await writeFile(settingsPath(home.path), ownLayout);
    await runInstaller("install", home.path);
    const installed = await readFile(settingsPath(home.path), "utf8");
    expect(
      installed.startsWith(
        '{\n    "model": "opus",\n    "permissions": {"allow": ["Bash(ls)"], "deny": []},\n    "env": { "A": "1" },\n    "theme": "dark",\n    "hooks": {\n        "Stop": [\n',
      ),
    ).toBe(true);
    expect(eventCommands(JSON.parse(installed), "Stop")).toEqual([
      expectedCommand(HOOK_BUNDLE, "claude-code"),
    ]);
    await runInstaller("uninstall", home.path);
    expect(await readFile(settingsPath(home.path), "utf8")).toBe(ownLayout);
  });

  it("uninstall after a fresh install leaves no settings.json behind: a HOME without Claude config stays so", async () => {
    await using home = await makeTemporaryDirectory();
    await runInstaller("install", home.path);
    await runInstaller("uninstall", home.path);
    await expect(stat(settingsPath(home.path))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a settings.json that is not JSON, leaving it untouched", async () => {
    await using home = await makeTemporaryDirectory();
    await mkdir(join(home.path, ".claude"), { recursive: true });
    await writeFile(settingsPath(home.path), "{ this is: not json");
    const result = await runInstaller("install", home.path);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("settings.json is not valid JSON");
    expect(await readFile(settingsPath(home.path), "utf8")).toBe("{ this is: not json");
  });

  it("writes a command that Claude Code's /bin/sh runs and that reports the turn", async () => {
    await using home = await makeTemporaryDirectory();
    await using daemon = await startFakeDaemon(202);
    await writeRingbackHome(join(home.path, ".ringback"), daemon.port);
    await runInstaller("install", home.path);
    const [command] = eventCommands(await readSettings(home.path), "Stop");
    const payload = { ...(await readPayload("claude-code-stop")), transcript_path: null };

    const result = await runShellCommand(command ?? "", {
      stdin: stdinFor("claude-code", payload),
      env: hookEnv(home.path),
    });

    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(daemon.requests).toHaveLength(1);
    expect(ReportRequest.parse(JSON.parse(daemon.requests[0]?.body ?? "")).source).toBe("claude-code");
  });

  it("writes a permission command that Claude Code's /bin/sh runs and that prints the phone's decision", async () => {
    await using setup = await homeWithDaemon({
      status: 200,
      body: JSON.stringify({ outcome: "decided", verdict: "allow", reason: null, decidedOn: "Pixel 8" }),
    });
    const { home, daemon } = setup;
    await runInstaller("install", home.path);
    const [command] = eventCommands(await readSettings(home.path), "PermissionRequest");
    const payload = {
      ...(await readGenuinePayload("permission-request-claude-code")),
      transcript_path: null,
    };

    const result = await runShellCommand(command ?? "", {
      stdin: stdinFor("claude-code", payload),
      env: hookEnv(home.path),
    });

    expect(result).toMatchObject({
      code: 0,
      stdout:
        '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n',
    });
    expect(daemon.requests.map((request) => request.url)).toEqual(["/permission-requests"]);
  });
});
