import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { basename, delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { PairingResult } from "@ringback/protocol";
import { freePort, makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChromiumHandle, launchChromium } from "../harness/chromium.ts";
import { setLocalPort } from "../harness/daemon-files.ts";
import { Device } from "../harness/device.ts";
import { claudeStopPayload } from "../harness/hook-process.ts";
import { type LocalRegistry, startLocalRegistry } from "../harness/local-registry.ts";
import { machineGlobalNpmConfig, machineNpmEnvironment } from "../harness/machine-npm.ts";
import { type PackedPackage, packPublishedPackages, tarballFiles } from "../harness/packed-packages.ts";
import { fromRoot } from "../harness/paths.ts";
import { runCommand, type ServiceProcess, startServiceProcess } from "../harness/service-process.ts";

const run = promisify(execFile);

// What a user does without a clone: the published packages, packed as they would be published, installed with plain
// npm into prefixes of their own. npm asks a registry on 127.0.0.1 for the `@ringback` scope, so no @ringback package
// ever comes from the internet; third-party dependencies come from the npm registry as usual. The three CLIs install
// from their tarballs alone (that registry knows no @ringback package for them); a library installs with its
// siblings, which that registry then serves from their tarballs.
/** The weight the first-hour issue allows for the daemon, the hook and the relay installed together. */
const CLI_INSTALL_MAX_BYTES = 30 * 1024 * 1024;
/** Each CLI package and the command it installs. */
const CLI_BINS = new Map([
  ["@ringback/daemon", "ringback"],
  ["@ringback/hook", "ringback-hook"],
  ["@ringback/relay", "ringback-relay"],
]);

let directory: TemporaryDirectory;
let packages: PackedPackage[];
let noRingbackRegistry: LocalRegistry;
let registry: LocalRegistry;
let prefix: string;
let home: string;
let env: NodeJS.ProcessEnv;
let npmEnv: NodeJS.ProcessEnv;
/** What `npm install` printed for the three CLIs together. */
let cliInstallOutput: string;
let relay: ServiceProcess;
let daemon: ServiceProcess;
let chromium: ChromiumHandle;

const bin = (name: string) => join(prefix, "bin", name);
const tarballOf = (name: string) => packages.find((entry) => entry.name === name)?.tarball ?? "";
/** The CLIs' tarballs as the README's `pnpm pack:clis` makes them. */
let cliTarballs: string[];

/** `npm install` as a user runs it, asking `scopeRegistry` for @ringback packages; its output, for the warnings. */
async function npmInstall(args: string[], scopeRegistry: LocalRegistry, cwd?: string): Promise<string> {
  const { stdout, stderr } = await run(
    "npm",
    [
      "install",
      // `--prefix` also moves npm's global config (to PREFIX/etc/npmrc): the machine's own must still apply.
      `--globalconfig=${machineGlobalNpmConfig()}`,
      `--@ringback:registry=${scopeRegistry.url}`,
      "--no-audit",
      "--no-fund",
      // npm's own fetch bound is 5 minutes with retries, so one stalled connection to the registry used to hold
      // the whole install for 10 minutes; a short bound with more retries rides it out, and its http log lines
      // (in the error, with the command's other output) say which fetch stalled if it still fails.
      "--loglevel=http",
      "--fetch-timeout=20000",
      "--fetch-retries=6",
      "--prefer-offline",
      ...args,
    ],
    { env: npmEnv, cwd, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 },
  );
  return `${stdout}${stderr}`;
}

/** `pnpm pack:clis --out DIR`, run with the pnpm that runs this test: the tarballs it wrote. */
async function packClisAsTheReadmeSays(out: string): Promise<string[]> {
  await run(process.execPath, [fromRoot("scripts/pack-clis.mjs"), "--out", out], {
    cwd: fromRoot("."),
    timeout: 240_000,
  });
  return (await readdir(out)).filter((file) => file.endsWith(".tgz")).map((file) => join(out, file));
}

/** Runs an installed Stop hook command as Claude Code does (through a shell, the payload on stdin), with debug lines. */
function runStopHook(command: string, lastWords: string) {
  const payload = claudeStopPayload(lastWords, { cwd: directory.path });
  return runCommand(
    ["-c", command],
    { ...env, RINGBACK_HOOK_DEBUG: "1" },
    `${JSON.stringify(payload)}\n`,
    directory.path,
    "/bin/sh",
  );
}

/** What a folder weighs on disk, as `du` counts it. */
async function diskBytes(path: string): Promise<number> {
  const { stdout } = await run("du", ["-sk", path]);
  return Number(stdout.split("\t")[0]) * 1024;
}

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  const packed = join(directory.path, "packed");
  await mkdir(packed);
  packages = await packPublishedPackages(packed);
  cliTarballs = await packClisAsTheReadmeSays(join(directory.path, "clis"));
  noRingbackRegistry = await startLocalRegistry([]);
  registry = await startLocalRegistry(packages);
  prefix = join(directory.path, "prefix");
  home = join(directory.path, "home");
  await mkdir(home);
  // The Node that runs this test (24) first: the installed bins say `#!/usr/bin/env node`.
  env = {
    PATH: [join(prefix, "bin"), dirname(process.execPath), process.env.PATH].join(delimiter),
    HOME: home,
    // No gathering window: a reported turn rings as soon as its brief is written.
    RINGBACK_GATHER_SECONDS: "0",
  };
  // npm as a user runs it from a shell, with an empty cache of its own: every third-party package comes from the
  // registry through the machine's CA and proxy settings, as on a machine that never installed them.
  npmEnv = machineNpmEnvironment({ path: env.PATH ?? "", cache: join(directory.path, "npm-cache") });
  cliInstallOutput = await npmInstall(["--global", "--prefix", prefix, ...cliTarballs], noRingbackRegistry);
}, 300_000);

afterAll(async () => {
  await chromium?.[Symbol.asyncDispose]();
  await daemon?.stop();
  await relay?.stop();
  await registry?.[Symbol.asyncDispose]();
  await noRingbackRegistry?.[Symbol.asyncDispose]();
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

  it("installs each CLI from its tarball alone, and the three together within 30 MB, without a warning", async () => {
    const outputs = [cliInstallOutput];
    expect(cliTarballs.map((tarball) => basename(tarball))).toEqual(
      [...CLI_BINS.keys()].map((name) => basename(tarballOf(name))),
    );
    for (const [name, command] of CLI_BINS) {
      const alone = join(directory.path, `alone-${command}`);
      const tarball = cliTarballs.find((file) => basename(file) === basename(tarballOf(name))) ?? "";
      outputs.push(await npmInstall(["--global", "--prefix", alone, tarball], noRingbackRegistry));
      const version = await runCommand([join(alone, "bin", command), "--version"], env);
      expect(version.code, `${name}: ${version.stderr}`).toBe(0);
      expect(version.stdout.trim()).toBe(packages.find((entry) => entry.name === name)?.version);
    }
    expect(noRingbackRegistry.requests.filter((path) => path.startsWith("/@ringback"))).toEqual([]);
    // The third-party packages came from the registry into the test's own cache, not from the machine's.
    expect(await readdir(join(directory.path, "npm-cache"))).toContain("_cacache");
    expect(await diskBytes(prefix)).toBeLessThanOrEqual(CLI_INSTALL_MAX_BYTES);
    expect(outputs.flatMap((output) => output.split("\n")).filter((line) => /^npm warn/i.test(line))).toEqual(
      [],
    );
  });

  it("installs a library with its @ringback dependencies from their tarballs, and it loads", async () => {
    const project = join(directory.path, "library-user");
    await mkdir(project);
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "library-user", private: true }));
    await npmInstall([tarballOf("@ringback/client")], registry, project);
    const asked = new Set(registry.requests);
    for (const name of ["@ringback/protocol", "@ringback/e2e-crypto"])
      expect(asked, name).toContain(`/${name}`);
    const loaded = await runCommand(
      [
        "--input-type=module",
        "-e",
        "const c = await import('@ringback/client'); console.log(typeof c.parsePairingLink)",
      ],
      env,
      "",
      project,
    );
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stdout.trim()).toBe("function");
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
    const hook = await runStopHook(command, "Done: installed from npm alone. All 12 tests pass.");
    expect(hook.stderr).toMatch(/took the report \(202\)/);
    await page.waitForRinging();
  });

  it("installs, with `ringback install`, the hook the daemon's package carries, and that hook reports", async () => {
    const installed = await runCommand([bin("ringback"), "install", "--no-service"], env);
    expect(installed.code, installed.stderr).toBe(0);
    const settings = JSON.parse(await readFile(join(home, ".claude", "settings.json"), "utf8"));
    const command: string = settings.hooks.Stop[0].hooks[0].command;
    expect(command).toContain(
      join(prefix, "lib", "node_modules", "@ringback", "daemon", "dist", "ringback-hook.mjs"),
    );
    const hook = await runStopHook(command, "Done: hooked by the daemon's own installer.");
    expect(hook.stderr).toMatch(/took the report \(202\)/);
  });
});
