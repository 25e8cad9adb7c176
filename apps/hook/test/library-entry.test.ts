import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, expect, it } from "vitest";
import { assertBundleBuilt, HOOK_BUNDLE } from "./support/hook-process.js";
import { eventCommands, expectedCommand } from "./support/installer.js";

beforeAll(assertBundleBuilt);

const LIBRARY = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "index.mjs");

it("the library entry installs and uninstalls as plain functions, pointing agents at the bundled hook", async () => {
  await using home = await makeTemporaryDirectory();
  const { install, uninstall, bundledHookPath } = (await import(LIBRARY)) as typeof import("../src/index.js");
  const homes = {
    claudeHome: join(home.path, "claude"),
    codexHome: join(home.path, "codex"),
    service: false,
  };

  expect(bundledHookPath()).toBe(HOOK_BUNDLE);
  const installed = install(homes);
  expect(installed.lines.join("\n")).toContain("added the Ringback Stop hook");
  const settings = JSON.parse(await readFile(join(homes.claudeHome, "settings.json"), "utf8"));
  expect(eventCommands(settings, "Stop")).toEqual([expectedCommand(HOOK_BUNDLE, "claude-code")]);

  uninstall(homes);
  // Nothing else was in it: the file goes, as it was not there before.
  await expect(readFile(join(homes.claudeHome, "settings.json"), "utf8")).rejects.toMatchObject({
    code: "ENOENT",
  });
});

it("warns when the hooks would run a Node inside a node_modules folder, and only then", async () => {
  await using home = await makeTemporaryDirectory();
  const { install } = (await import(LIBRARY)) as typeof import("../src/index.js");
  const homes = {
    claudeHome: join(home.path, "claude"),
    codexHome: join(home.path, "codex"),
    service: false,
  };
  const pinned = "/home/ada/shop/node_modules/node/bin/node";
  expect(install({ ...homes, nodePath: pinned }).lines).toContainEqual(
    expect.stringContaining(`the hooks run the Node at ${pinned}, inside a node_modules folder`),
  );
  expect(install({ ...homes, nodePath: "/usr/local/bin/node" }).lines.join("\n")).not.toContain(
    "node_modules",
  );
});
