import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import {
  freePort,
  listenOnLoopback,
  makeTemporaryDirectory,
  runToEnd,
  type StartedChild,
  startChild,
  type TemporaryDirectory,
} from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChromiumHandle, launchChromium } from "../harness/chromium.ts";
import { runRingback } from "../harness/daemon-process.ts";
import { Device } from "../harness/device.ts";
import { fromRoot } from "../harness/paths.ts";

// `pnpm start` as a person meets it: the script itself (the built parts already there), in a clean HOME, on
// 127.0.0.1 with --port 0. What it prints must be true for whoever reads it: the link is for this computer's browser,
// the phone's way is offered beside it, the code is offered only with a passphrase that exists, and every option it
// suggests exists.
const START = `npx --yes ${JSON.parse(readFileSync(fromRoot("package.json"), "utf8")).packageManager} start`;
const PASSPHRASE = "correct horse battery staple";
let directory: TemporaryDirectory;

function environment(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: join(directory.path, "home"),
    LANG: "en_US.UTF-8",
    RINGBACK_HOME: join(directory.path, "home", ".ringback"),
    RINGBACK_RELAY_DATA: join(directory.path, "relay"),
    RINGBACK_START_NO_BUILD: "1",
    // No gathering window: the started daemon rings a report as soon as its brief is written.
    RINGBACK_GATHER_SECONDS: "0",
  };
}

function runScript(args: readonly string[], command?: string) {
  return runToEnd({
    args: [fromRoot("scripts/start.mjs"), ...args],
    ...(command ? { command } : {}),
    cwd: fromRoot("."),
    env: environment(),
    name: "pnpm start",
    timeoutMs: 60_000,
  });
}

function startScript(args: readonly string[]): StartedChild {
  return startChild({
    args: [fromRoot("scripts/start.mjs"), ...args],
    cwd: fromRoot("."),
    env: environment(),
    name: "pnpm start",
  });
}

/** Waits for the script's last line: everything it starts is up. */
async function untilStarted(start: StartedChild): Promise<void> {
  await start.waitFor(() => start.output.includes("Press Ctrl-C to stop."), "it was started", 3_000);
}

/** The machine's own Node.js when it is older than the relay needs (Debian's /usr/bin/node is 20), else null. */
function tooOldSystemNode(): { path: string; version: string } | null {
  const path = "/usr/bin/node";
  if (!existsSync(path)) return null;
  const version = execFileSync(path, ["--version"], { encoding: "utf8" }).trim().replace(/^v/, "");
  const engines = JSON.parse(readFileSync(fromRoot("apps/relay/package.json"), "utf8")).engines
    .node as string;
  const [major = 0, minor = 0] = engines.replace(/^>=/, "").split(".").map(Number);
  const [foundMajor = 0, foundMinor = 0] = version.split(".").map(Number);
  const isTooOld = foundMajor < major || (foundMajor === major && foundMinor < minor);
  return isTooOld ? { path, version } : null;
}

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
});

afterAll(async () => {
  await directory?.remove();
});

describe("pnpm start, before it starts anything", () => {
  it("lists its options with --help, every one its messages suggest", async () => {
    const result = await runScript(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: ${START.replaceAll(".", "\\.")} \\[options\\]`));
    for (const option of [
      "--lan ",
      "--lan-address IP",
      "--port PORT",
      "--ca-port PORT",
      "--daemon-port PORT",
      "--help",
    ])
      expect(result.stdout).toContain(option);
    expect(result.stdout).toContain(
      "the one place the\n                      installed hooks, pnpm ring and ringback doctor read it from",
    );
  });

  it("refuses an unknown option or a bad port in one line, exit code 2, and starts nothing", async () => {
    const unknown = await runScript(["--prot", "9000"]);
    expect(unknown).toMatchObject({
      code: 2,
      stdout: "",
      stderr: `ringback start: unknown option --prot (${START} --help lists the options)\n`,
    });
    const badPort = await runScript(["--port", "eighty"]);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toMatch(
      /^ringback start: --port must be a port number from 0 to 65535 .*"eighty"/,
    );
    // A port fetch refuses to connect to is named as such (it was "fetch failed" once the relay had started).
    const blocked = await runScript(["--port", "1"]);
    expect(blocked).toMatchObject({
      code: 2,
      stderr: `ringback start: --port 1 is a port browsers and Node.js refuse to connect to (a "bad port" of the Fetch standard): choose another, such as --port 8787 (${START} --help lists the options)\n`,
    });
    expect(existsSync(join(directory.path, "relay"))).toBe(false);
  });

  it("warns that a phone cannot reach a loopback --lan-address", async () => {
    await using taken = await listenOnLoopback(createServer());
    const result = await runScript(["--lan-address", "127.0.0.1", "--port", String(taken.port)]);
    expect(result.stderr.split("\n")[0]).toBe(
      "ringback start: --lan-address 127.0.0.1 is this computer's loopback address: a phone cannot reach it, only this " +
        "computer can. Leave --lan-address out to use the computer's network address, or give that address",
    );
  });

  it("says which port is taken and the option that picks another, without a stack trace", async () => {
    await using taken = await listenOnLoopback(createServer());
    const result = await runScript(["--port", String(taken.port)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `ringback start: port ${taken.port} on 127.0.0.1 is in use (another Ringback, or another program): stop it, ` +
        `or start on another port: ${START} --port ${taken.port + 10}\n`,
    );
  });

  const oldNode = tooOldSystemNode();
  it.runIf(oldNode)(
    `on this machine's Node.js ${oldNode?.version ?? ""}, says in one line which Node it needs and how to get it`,
    async () => {
      const result = await runScript([], oldNode?.path);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^ringback start: Node\\.js ${oldNode?.version.replaceAll(".", "\\.")} is too old: the relay needs Node\\.js 22\\.16 or later`,
        ),
      );
      expect(result.stderr).toContain(`Run ${START}, which uses the workspace's own Node.js 24`);
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    },
  );
});

describe("pnpm start on this computer", () => {
  let start: StartedChild;
  let chromium: ChromiumHandle | undefined;

  beforeAll(async () => {
    start = startScript(["--port", "0"]);
    await untilStarted(start);
  }, 90_000);

  afterAll(async () => {
    await chromium?.[Symbol.asyncDispose]();
    await start?.stop("SIGTERM");
  });

  it("says the link is for this computer's browser, and offers the phone's way on the same screen", () => {
    const relayUrl = /Relay and web app: (http:\/\/127\.0\.0\.1:(\d+))/.exec(start.stdout);
    expect(Number(relayUrl?.[2])).toBeGreaterThan(0);
    expect(start.stdout).toContain("the link below is for a browser on this computer");
    expect(start.stdout).toContain("A phone cannot open it");
    expect(start.stdout).toContain(`stop this (Ctrl-C) and run  ${START} --lan`);
    expect(start.stdout).toContain("a relay on a server behind HTTPS (README, Ring a real phone)");
    // No QR code: a phone could scan it but not open it.
    expect(start.stdout).not.toMatch(/[▄▀]/);
    // The account's key was generated, not made from a passphrase: no code is offered, no passphrase is asked for.
    expect(start.stdout).not.toMatch(/passphrase|enter the code/i);
    // The first start: no device was paired at another address.
    expect(start.stdout).not.toContain("do not reach this relay now");
  });

  it("pairs this computer's browser by the printed link, and the printed ring command rings it", async () => {
    const link = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/#\S+)$/m.exec(start.stdout)?.[1] ?? "";
    expect(link).toContain("#pair=");
    chromium = await launchChromium();
    await using browser = await Device.join(chromium.browser, "this computer's browser", link);
    const ring = await runToEnd({
      args: [fromRoot("scripts/ring.mjs"), "Started and ringing."],
      cwd: fromRoot("."),
      env: environment(),
      name: "pnpm ring",
    });
    expect(ring.code).toBe(0);
    await browser.waitForRinging();
  });

  it("offers the code with the account's passphrase once there is one, and that code and passphrase join its key", async () => {
    await start.stop("SIGTERM");
    const home = join(directory.path, "home", ".ringback");
    const key = await runRingback(home, ["key", "--passphrase-stdin"], { stdin: `${PASSPHRASE}\n` });
    const keyId = /End-to-end key (\S+) \(passphrase\)/.exec(key.stdout)?.[1];
    expect(keyId).toBeDefined();
    start = startScript(["--port", "0"]);
    await untilStarted(start);
    const code = /Or enter the code (\d{12}) there, with the account's passphrase\./.exec(start.stdout)?.[1];
    expect(code).toBeDefined();
    // Another computer joins with that code and the passphrase, and ends up with the same end-to-end key.
    const relayUrl = /Relay and web app: (\S+)/.exec(start.stdout)?.[1] ?? "";
    const other = join(directory.path, "other", ".ringback");
    const joined = await runRingback(
      other,
      ["login", code ?? "", "--server", relayUrl, "--passphrase-stdin", "--name", "Other"],
      { stdin: `${PASSPHRASE}\n` },
    );
    expect(joined.stdout).toContain(`End-to-end key ${keyId} (passphrase).`);
  });

  it("tells the browsers paired at the last start's address, once it serves another, how to join again", async () => {
    const before = /Relay and web app: (http:\/\/127\.0\.0\.1:(\d+))/.exec(start.stdout);
    expect(before).not.toBeNull();
    await start.stop("SIGTERM");
    let port = await freePort();
    while (String(port) === before?.[2]) port = await freePort();
    start = startScript(["--port", String(port)]);
    await untilStarted(start);
    const note = start.stdout.indexOf(
      `Browsers paired at ${before?.[1]} do not reach this relay now: open the pairing link below in them to join again.`,
    );
    expect(note).toBeGreaterThan(0);
    expect(note).toBeLessThan(start.stdout.indexOf(`http://127.0.0.1:${port}/#pair=`));
  });
});
