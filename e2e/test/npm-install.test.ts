import { execFile } from "node:child_process";
import { mkdir, readFile } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { PairingResult } from "@ringback/protocol";
import { freePort, makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChromiumHandle, launchChromium } from "../harness/chromium.ts";
import { setLocalPort } from "../harness/daemon-files.ts";
import { Device } from "../harness/device.ts";
import { claudeStopPayload } from "../harness/hook-process.ts";
import { type LocalRegistry, startLocalRegistry } from "../harness/local-registry.ts";
import { type PackedPackage, packPublishedPackages, tarballFiles } from "../harness/packed-packages.ts";
import { runCommand, type ServiceProcess, startServiceProcess } from "../harness/service-process.ts";

const run = promisify(execFile);

// What a user does without a clone: the published packages, packed as they would be published, installed with plain
// npm into a prefix of their own. @ringback packages come only from those tarballs (npm asks a registry on 127.0.0.1
// that knows nothing else for the scope); third-party dependencies come from the npm registry as usual.
let directory: TemporaryDirectory;
let packages: PackedPackage[];
let registry: LocalRegistry;
let prefix: string;
let home: string;
let env: NodeJS.ProcessEnv;
let relay: ServiceProcess;
let daemon: ServiceProcess;
let chromium: ChromiumHandle;

const bin = (name: string) => join(prefix, "bin", name);
const tarballOf = (name: string) => packages.find((entry) => entry.name === name)?.tarball ?? "";

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  const packed = join(directory.path, "packed");
  await mkdir(packed);
  packages = await packPublishedPackages(packed);
  registry = await startLocalRegistry(packages);
  prefix = join(directory.path, "prefix");
  home = join(directory.path, "home");
  await mkdir(home);
  // The Node that runs this test (24) first: the installed bins say `#!/usr/bin/env node`.
  env = {
    PATH: [join(prefix, "bin"), dirname(process.execPath), process.env.PATH].join(delimiter),
    HOME: home,
  };
  // npm as a user runs it from a shell: without the npm_config_* settings pnpm hands this test's process (among them
  // pnpm's own globalconfig, which would hide the machine's npmrc: its registry's CA, a proxy).
  const npmEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
    PATH: env.PATH,
  };
  // `--prefix` also moves npm's global config (to PREFIX/etc/npmrc): the machine's own must still apply.
  const { stdout: globalConfig } = await run("npm", ["config", "get", "globalconfig"], { env: npmEnv });
  await run(
    "npm",
    [
      "install",
      "--global",
      "--prefix",
      prefix,
      `--globalconfig=${globalConfig.trim()}`,
      `--@ringback:registry=${registry.url}`,
      "--no-audit",
      "--no-fund",
      // npm's own fetch bound is 5 minutes with retries, so one stalled connection to the registry used to hold
      // the whole install for 10 minutes; a short bound with more retries rides it out, and its http log lines
      // (in the error, with the command's other output) say which fetch stalled if it still fails.
      "--loglevel=http",
      "--fetch-timeout=20000",
      "--fetch-retries=6",
      "--prefer-offline",
      tarballOf("@ringback/daemon"),
      tarballOf("@ringback/hook"),
      tarballOf("@ringback/relay"),
    ],
    { env: npmEnv, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 },
  );
}, 300_000);

afterAll(async () => {
  await chromium?.[Symbol.asyncDispose]();
  await daemon?.stop();
  await relay?.stop();
  await registry?.[Symbol.asyncDispose]();
  await directory?.remove();
});

describe("the published packages, installed from their tarballs with plain npm", () => {
  it("packs every published package with its README, LICENSE and built files, and no workspace ranges", () => {
    expect(packages.map((entry) => entry.name).sort()).toEqual([
      "@ringback/brief",
      "@ringback/client",
      "@ringback/daemon",
      "@ringback/e2e-crypto",
      "@ringback/hook",
      "@ringback/outbox",
      "@ringback/protocol",
      "@ringback/relay",
      "@ringback/tracker-client",
    ]);
    for (const entry of packages) {
      const files = tarballFiles(entry.tarball);
      expect(files, entry.name).toContain("README.md");
      expect(files, entry.name).toContain("LICENSE");
      expect(
        files.some((file) => file.startsWith("dist/")),
        entry.name,
      ).toBe(true);
      expect(JSON.stringify(entry.manifest), entry.name).not.toContain("workspace:");
    }
    expect(tarballFiles(tarballOf("@ringback/relay"))).toContain("web/index.html");
  });

  it("took every @ringback package npm installed from the packed tarballs", () => {
    const asked = new Set(registry.requests.filter((path) => path.startsWith("/@ringback/")));
    for (const name of ["@ringback/protocol", "@ringback/e2e-crypto", "@ringback/brief", "@ringback/outbox"])
      expect(asked, name).toContain(`/${name}`);
  });

  it("runs the relay serving the web app from its installed package, the daemon, and the hook's installer", async () => {
    relay = await startServiceProcess({
      name: "relay",
      args: [
        bin("ringback-relay"),
        "--port",
        "0",
        "--data",
        join(directory.path, "relay-data"),
        "--open-signup",
      ],
      env,
      readyLine: /ringback relay listening on (http:\/\/\S+)/,
    });
    const relayUrl = relay.ready[1] ?? "";
    expect(relay.stderr()).toContain(
      `web app from ${join(prefix, "lib", "node_modules", "@ringback", "relay", "web")}`,
    );
    expect(await (await fetch(relayUrl)).text()).toContain("<html");

    const login = await runCommand([bin("ringback"), "login", "--server", relayUrl, "--name", "desk"], env);
    expect(login.code, login.stderr).toBe(0);
    await setLocalPort(join(home, ".ringback"), await freePort());
    daemon = await startServiceProcess({
      name: "daemon",
      args: [bin("ringback"), "run"],
      env,
      readyLine: /^ringback daemon listening on (http:\/\/\S+)$/m,
    });
    await daemon.waitFor(() => daemon.stderr().includes("relay link open"), "its relay link", 1_500);

    const installed = await runCommand([bin("ringback-hook"), "install"], env);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain("Claude Code: added the Ringback Stop hook");
    expect(installed.stdout).toContain("Codex: trusted the hook");
  });

  it("rings a Chromium page for a turn reported by the hook command the installer wrote", async () => {
    const pair = await runCommand([bin("ringback"), "pair", "--json"], env);
    const { link } = PairingResult.parse(JSON.parse(pair.stdout));
    chromium = await launchChromium();
    await using page = await Device.join(chromium.browser, "phone", link);
    const settings = JSON.parse(await readFile(join(home, ".claude", "settings.json"), "utf8"));
    const command: string = settings.hooks.Stop[0].hooks[0].command;
    expect(command).toContain(join(prefix, "lib", "node_modules", "@ringback"));
    const payload = claudeStopPayload("Done: installed from npm alone. All 12 tests pass.", {
      cwd: directory.path,
    });
    const hook = await runCommand(
      ["-c", command],
      { ...env, RINGBACK_HOOK_DEBUG: "1" },
      `${JSON.stringify(payload)}\n`,
      directory.path,
      "/bin/sh",
    );
    expect(hook.stderr).toMatch(/took the report \(202\)/);
    await page.waitForRinging();
  });
});
