import { createHash } from "node:crypto";
import { mkdir, readFile, realpath, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { parse as parseToml } from "smol-toml";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBundleBuilt, HOOK_BUNDLE, runBundle } from "./support/hook-process.js";
import { bundleCopyIn, eventCommands, expectedCommand, runInstaller } from "./support/installer.js";

beforeAll(assertBundleBuilt);

/**
 * The hash Codex computes for a handler in a group without a matcher, written out from the recipe in the hook
 * reference (not taken from the installer's code): SHA-256 of the compact JSON, keys sorted, of
 * {"event_name":"stop","hooks":[{"type":"command","command":…,"timeout":…,"async":false}]}, the event named as in
 * Codex's trust keys (`stop`, `permission_request`).
 */
function referenceTrustHash(command: string, timeout: number, eventName = "stop"): string {
  const identity = `{"event_name":"${eventName}","hooks":[{"async":false,"command":${JSON.stringify(command)},"timeout":${timeout},"type":"command"}]}`;
  return `sha256:${createHash("sha256").update(identity).digest("hex")}`;
}

/** The user's own PermissionRequest hook's record: the installer keeps it as it is, never reads its hash. */
const USERS_PERMISSION_HASH = "sha256:5f0c1e0f2b8e6a55d1e04c3a9c1b7e2d4f6a8b0c2e4f6a8b0c2e4f6a8b0c2e4f";

const EXISTING_HOOKS = {
  hooks: {
    SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "~/bin/codex-start.sh" }] }],
    Stop: [
      { hooks: [{ type: "command", command: "~/bin/say-done.sh", timeout: 20 }] },
      {
        hooks: [
          { type: "command", command: "~/bin/log-turn.sh" },
          { type: "command", command: "~/bin/beep.sh" },
        ],
      },
    ],
    PermissionRequest: [
      { matcher: "Bash", hooks: [{ type: "command", command: "~/bin/allow-git-status.sh", timeout: 5 }] },
    ],
  },
};

function existingConfig(hooksJson: string): string {
  return `# my Codex settings
model = "gpt-5.1-codex"
model_provider = "local"   # a comment that must stay

[model_providers.local]
name = "Local"
base_url = "http://127.0.0.1:11434/v1"
wire_api = "responses"
notes = """
[hooks.state."not a header: inside a string"]
"""

[projects."/home/dev/shop-api"]
trust_level = "trusted"

[hooks.state."${hooksJson}:stop:0:0"]
trusted_hash = "${referenceTrustHash("~/bin/say-done.sh", 20)}"

[hooks.state."${hooksJson}:stop:1:1"]
trusted_hash = "${referenceTrustHash("~/bin/beep.sh", 600)}"
enabled = true

[hooks.state."${hooksJson}:permission_request:0:0"]
trusted_hash = "${USERS_PERMISSION_HASH}"
`;
}

interface CodexFiles {
  hooksJson: string;
  configToml: string;
}

async function codexFiles(home: string): Promise<CodexFiles> {
  const directory = await realpath(join(home, ".codex"));
  return { hooksJson: join(directory, "hooks.json"), configToml: join(directory, "config.toml") };
}

async function seedCodex(home: string): Promise<CodexFiles & { config: string }> {
  await mkdir(join(home, ".codex"), { recursive: true });
  const files = await codexFiles(home);
  const config = existingConfig(files.hooksJson);
  await writeFile(files.hooksJson, JSON.stringify(EXISTING_HOOKS, null, 2));
  await writeFile(files.configToml, config);
  return { ...files, config };
}

type TrustTable = Record<string, { trusted_hash?: string; enabled?: boolean }>;

/** The trust records `existingConfig` holds for the user's own hooks, as the trust table reads them. */
function usersTrustRecords(files: CodexFiles): TrustTable {
  return {
    [`${files.hooksJson}:stop:0:0`]: { trusted_hash: referenceTrustHash("~/bin/say-done.sh", 20) },
    [`${files.hooksJson}:stop:1:1`]: {
      trusted_hash: referenceTrustHash("~/bin/beep.sh", 600),
      enabled: true,
    },
    [`${files.hooksJson}:permission_request:0:0`]: { trusted_hash: USERS_PERMISSION_HASH },
  };
}

async function trustState(files: CodexFiles): Promise<TrustTable> {
  const config = parseToml(await readFile(files.configToml, "utf8")) as { hooks?: { state?: TrustTable } };
  return config.hooks?.state ?? {};
}

async function readHooks(files: CodexFiles): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(files.hooksJson, "utf8"));
}

describe("ringback-hook install: Codex's hooks.json and its trust record", () => {
  it("writes hooks.json and trust records whose hashes match the reference recipe", async () => {
    await using home = await makeTemporaryDirectory();
    const result = await runInstaller("install", home.path);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Codex: added the Ringback PermissionRequest hook");
    const files = await codexFiles(home.path);
    const command = expectedCommand(HOOK_BUNDLE, "codex");
    expect(await readHooks(files)).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: "command", command, timeout: 10 }] }],
        PermissionRequest: [{ hooks: [{ type: "command", command, timeout: 330 }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command, timeout: 10 }] }],
      },
    });
    expect(await trustState(files)).toEqual({
      [`${files.hooksJson}:stop:0:0`]: { trusted_hash: referenceTrustHash(command, 10) },
      [`${files.hooksJson}:permission_request:0:0`]: {
        trusted_hash: referenceTrustHash(command, 330, "permission_request"),
      },
      [`${files.hooksJson}:user_prompt_submit:0:0`]: {
        trusted_hash: referenceTrustHash(command, 10, "user_prompt_submit"),
      },
    });
    expect((await stat(files.configToml)).mode & 0o777).toBe(0o600);
  });

  it("keeps other hooks, their trust and every byte of config.toml, appending only our record", async () => {
    await using home = await makeTemporaryDirectory();
    const seeded = await seedCodex(home.path);
    await runInstaller("install", home.path);

    const hooks = await readHooks(seeded);
    expect(eventCommands(hooks, "Stop")).toEqual([
      "~/bin/say-done.sh",
      "~/bin/log-turn.sh",
      "~/bin/beep.sh",
      expectedCommand(HOOK_BUNDLE, "codex"),
    ]);
    expect(eventCommands(hooks, "PermissionRequest")).toEqual([
      "~/bin/allow-git-status.sh",
      expectedCommand(HOOK_BUNDLE, "codex"),
    ]);
    expect((hooks.hooks as Record<string, unknown>).SessionStart).toEqual(EXISTING_HOOKS.hooks.SessionStart);
    const config = await readFile(seeded.configToml, "utf8");
    expect(config.startsWith(seeded.config)).toBe(true);
    expect(await trustState(seeded)).toEqual({
      ...usersTrustRecords(seeded),
      [`${seeded.hooksJson}:stop:2:0`]: {
        trusted_hash: referenceTrustHash(expectedCommand(HOOK_BUNDLE, "codex"), 10),
      },
      [`${seeded.hooksJson}:permission_request:1:0`]: {
        trusted_hash: referenceTrustHash(expectedCommand(HOOK_BUNDLE, "codex"), 330, "permission_request"),
      },
      [`${seeded.hooksJson}:user_prompt_submit:0:0`]: {
        trusted_hash: referenceTrustHash(expectedCommand(HOOK_BUNDLE, "codex"), 10, "user_prompt_submit"),
      },
    });
  });

  it("installing twice changes nothing the second time", async () => {
    await using home = await makeTemporaryDirectory();
    const seeded = await seedCodex(home.path);
    await runInstaller("install", home.path);
    const [hooks, config] = [
      await readFile(seeded.hooksJson, "utf8"),
      await readFile(seeded.configToml, "utf8"),
    ];
    const again = await runInstaller("install", home.path);
    expect(again.stdout).toContain(`Codex: ${seeded.hooksJson} already up to date`);
    expect(again.stdout).toContain("already trusts the hooks");
    expect(await readFile(seeded.hooksJson, "utf8")).toBe(hooks);
    expect(await readFile(seeded.configToml, "utf8")).toBe(config);
  });

  it("reinstalling from another directory leaves one hook and one fresh trust record", async () => {
    await using home = await makeTemporaryDirectory();
    await using elsewhere = await makeTemporaryDirectory();
    const seeded = await seedCodex(home.path);
    await runInstaller("install", home.path);
    await runInstaller("install", home.path);
    const otherBundle = await bundleCopyIn(join(elsewhere.path, "dist"));
    await runInstaller("install", home.path, { bundle: otherBundle });

    const hooks = await readHooks(seeded);
    for (const event of ["Stop", "PermissionRequest", "UserPromptSubmit"] as const) {
      const ours = eventCommands(hooks, event).filter((command) => command.includes("ringback-hook"));
      expect(ours).toEqual([expectedCommand(otherBundle, "codex")]);
    }
    const state = await trustState(seeded);
    expect(Object.keys(state)).toHaveLength(6);
    expect(state[`${seeded.hooksJson}:stop:2:0`]).toEqual({
      trusted_hash: referenceTrustHash(expectedCommand(otherBundle, "codex"), 10),
    });
    expect(state[`${seeded.hooksJson}:permission_request:1:0`]).toEqual({
      trusted_hash: referenceTrustHash(expectedCommand(otherBundle, "codex"), 330, "permission_request"),
    });
    expect(state[`${seeded.hooksJson}:user_prompt_submit:0:0`]).toEqual({
      trusted_hash: referenceTrustHash(expectedCommand(otherBundle, "codex"), 10, "user_prompt_submit"),
    });
  });

  it("when removing an older hook shifts other groups, their trust records follow them", async () => {
    await using home = await makeTemporaryDirectory();
    const seeded = await seedCodex(home.path);
    // An old Ringback hook sits first, so every other group moves up when it goes.
    const withOldHook = structuredClone(EXISTING_HOOKS);
    withOldHook.hooks.Stop.unshift({
      hooks: [{ type: "command", command: "ringback hook codex", timeout: 30 }],
    });
    await writeFile(seeded.hooksJson, JSON.stringify(withOldHook));
    const shifted = seeded.config
      .replace(":stop:1:1", ":stop:2:1")
      .replace(":stop:0:0", ":stop:1:0")
      .concat(
        `\n[hooks.state."${seeded.hooksJson}:stop:0:0"]\ntrusted_hash = "${referenceTrustHash("ringback hook codex", 30)}"\n`,
      );
    await writeFile(seeded.configToml, shifted);

    await runInstaller("uninstall", home.path);

    expect(await readHooks(seeded)).toEqual(EXISTING_HOOKS);
    expect(await trustState(seeded)).toEqual(usersTrustRecords(seeded));
  });

  it("uninstall after a fresh install leaves neither hooks.json nor config.toml behind", async () => {
    await using home = await makeTemporaryDirectory();
    await runInstaller("install", home.path);
    await runInstaller("uninstall", home.path);
    for (const file of ["hooks.json", "config.toml"])
      await expect(stat(join(home.path, ".codex", file))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("uninstall restores hooks.json and config.toml byte for byte", async () => {
    await using home = await makeTemporaryDirectory();
    const seeded = await seedCodex(home.path);
    const hooksBefore = await readFile(seeded.hooksJson, "utf8");
    await runInstaller("install", home.path);
    const result = await runInstaller("uninstall", home.path);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Codex: removed 1 Ringback PermissionRequest hook(s)");
    expect(result.stdout).toContain("removed the hooks' trust records");
    expect(await readFile(seeded.hooksJson, "utf8")).toBe(hooksBefore);
    expect(await readFile(seeded.configToml, "utf8")).toBe(seeded.config);
  });

  it("refuses to edit a config.toml that keeps hook state inline, leaving both files untouched", async () => {
    await using home = await makeTemporaryDirectory();
    const seeded = await seedCodex(home.path);
    const inline = `${seeded.config}\n[hooks]\nstate = { "elsewhere:stop:0:0" = { trusted_hash = "sha256:00" } }\n`;
    await writeFile(seeded.configToml, inline);
    const hooksBefore = await readFile(seeded.hooksJson, "utf8");

    const result = await runInstaller("install", home.path);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain("sets Codex hook state inline");
    expect(await readFile(seeded.configToml, "utf8")).toBe(inline);
    expect(await readFile(seeded.hooksJson, "utf8")).toBe(hooksBefore);
  });

  it("follows CODEX_HOME through a symbolic link, as Codex keys trust by the resolved path", async () => {
    await using home = await makeTemporaryDirectory();
    await mkdir(join(home.path, "real-codex"));
    await symlink(join(home.path, "real-codex"), join(home.path, "codex-link"));
    const result = await runBundle({
      args: ["install", "--claude-home", join(home.path, ".claude"), "--no-service"],
      env: { PATH: process.env.PATH, HOME: home.path, CODEX_HOME: join(home.path, "codex-link") },
    });
    expect(result.code).toBe(0);
    const resolved = join(await realpath(join(home.path, "real-codex")), "hooks.json");
    expect(
      Object.keys(
        await trustState({ hooksJson: resolved, configToml: join(home.path, "real-codex", "config.toml") }),
      ),
    ).toEqual([
      `${resolved}:stop:0:0`,
      `${resolved}:permission_request:0:0`,
      `${resolved}:user_prompt_submit:0:0`,
    ]);
  });
});
