import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { inspectInstallation } from "../src/index.js";
import { assertBundleBuilt } from "./support/hook-process.js";
import { bundleCopyIn, runInstaller } from "./support/installer.js";

beforeAll(assertBundleBuilt);

/** The installed bin in a temp place, both agents' homes beside it, and what inspection sees for that bin. */
async function setUp(home: string) {
  const bundle = await bundleCopyIn(join(home, "bin"));
  const inspect = (hookPath = bundle) =>
    inspectInstallation({
      claudeHome: join(home, ".claude"),
      codexHome: join(home, ".codex"),
      hookPath,
      env: { HOME: home },
    });
  return { home, bundle, inspect };
}

describe("inspecting the installed Stop and PermissionRequest hooks, read only", () => {
  it("finds nothing before install, and nothing is created by looking", async () => {
    await using directory = await makeTemporaryDirectory();
    const { home, inspect } = await setUp(directory.path);
    const [claude, codex] = inspect();
    expect(claude).toMatchObject({
      agent: "claude-code",
      isInstalled: false,
      isCurrent: false,
      command: null,
    });
    expect(codex).toMatchObject({ agent: "codex", isInstalled: false, trust: "missing" });
    expect(claude?.permission).toEqual({ isInstalled: false, isCurrent: false });
    expect(codex?.permission).toEqual({ isInstalled: false, isCurrent: false, trust: "missing" });
    await expect(readFile(join(home, ".claude", "settings.json"))).rejects.toThrow(/ENOENT/);
  });

  it("sees both hooks current and Codex's trust record current after install", async () => {
    await using directory = await makeTemporaryDirectory();
    const { home, bundle, inspect } = await setUp(directory.path);
    expect((await runInstaller("install", home, { bundle })).code).toBe(0);
    const [claude, codex] = inspect();
    expect(claude).toMatchObject({ isInstalled: true, isCurrent: true, isHookFilePresent: true });
    expect(claude?.command).toContain(bundle);
    expect(codex).toMatchObject({
      isInstalled: true,
      isCurrent: true,
      isHookFilePresent: true,
      trust: "current",
    });
    expect(claude?.permission).toEqual({ isInstalled: true, isCurrent: true });
    expect(codex?.permission).toEqual({ isInstalled: true, isCurrent: true, trust: "current" });
  });

  it("sees a Stop hook from an install that predates the PermissionRequest hook", async () => {
    await using directory = await makeTemporaryDirectory();
    const { home, bundle, inspect } = await setUp(directory.path);
    expect((await runInstaller("install", home, { bundle })).code).toBe(0);
    for (const file of [join(home, ".claude", "settings.json"), join(home, ".codex", "hooks.json")]) {
      const settings = JSON.parse(await readFile(file, "utf8"));
      delete settings.hooks.PermissionRequest;
      await writeFile(file, JSON.stringify(settings));
    }
    const [claude, codex] = inspect();
    expect(claude).toMatchObject({ isInstalled: true, isCurrent: true });
    expect(claude?.permission).toEqual({ isInstalled: false, isCurrent: false });
    expect(codex).toMatchObject({ isInstalled: true, isCurrent: true, trust: "current" });
    expect(codex?.permission).toEqual({ isInstalled: false, isCurrent: false, trust: "missing" });
  });

  it("tells a hook installed from another place (an older install) from the current one", async () => {
    await using directory = await makeTemporaryDirectory();
    const { home, inspect } = await setUp(directory.path);
    const older = await bundleCopyIn(join(home, "old-bin"));
    expect((await runInstaller("install", home, { bundle: older })).code).toBe(0);
    const [claude, codex] = inspect();
    expect(claude).toMatchObject({ isInstalled: true, isCurrent: false });
    // Codex trusts what is installed, even if it is not the current command.
    expect(codex).toMatchObject({ isInstalled: true, isCurrent: false, trust: "current" });
    await rm(join(home, "old-bin"), { recursive: true });
    expect(inspect()[0]).toMatchObject({ isHookFilePresent: false });
  });

  it("finds a Codex trust record that no longer matches the installed command, or none", async () => {
    await using directory = await makeTemporaryDirectory();
    const { home, bundle, inspect } = await setUp(directory.path);
    expect((await runInstaller("install", home, { bundle })).code).toBe(0);
    const config = join(home, ".codex", "config.toml");
    const text = await readFile(config, "utf8");
    await writeFile(config, text.replace(/trusted_hash = "sha256:[0-9a-f]+"/, 'trusted_hash = "sha256:00"'));
    expect(inspect()[1]?.trust).toBe("stale");
    expect(inspect()[1]?.permission.trust).toBe("current");
    await writeFile(
      config,
      text.replace(/(permission_request:0:0"\]\ntrusted_hash = )"sha256:[0-9a-f]+"/, '$1"sha256:00"'),
    );
    expect(inspect()[1]?.trust).toBe("current");
    expect(inspect()[1]?.permission.trust).toBe("stale");
    await writeFile(config, "");
    expect(inspect()[1]?.trust).toBe("missing");
  });
});
