// The main job: builds what runs, starts the relay (serving the web app) and the daemon on this machine with
// embedded defaults, creates the account on first run, and prints how to pair and the command that rings.
// `--lan` serves the relay on the machine's LAN address over HTTPS with a local CA, for a phone on the same network.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { serveCaCertificate } from "./lan/ca-download.mjs";
import { lanAddress } from "./lan/lan-address.mjs";
import { ensureLocalCertificates, servedNames } from "./lan/local-ca.mjs";
import { nodeTooOldForStart } from "./start/node-check.mjs";
import { previousRelayUrl, rememberRelayUrl } from "./start/previous-address.mjs";
import { lanAddressWarning, parseStartOptions, StartUsageError, startHelp } from "./start/start-options.mjs";
import { lanScreen, loopbackScreen } from "./start/start-screen.mjs";
import { turboBuild } from "./turbo-build.mjs";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const pnpmCommand = `npx --yes ${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager}`;
const startCommand = `${pnpmCommand} start`;

let options;
try {
  options = parseStartOptions(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof StartUsageError)) throw error;
  process.stderr.write(`ringback start: ${error.message} (${startCommand} --help lists the options)\n`);
  process.exit(2);
}
if (options.isHelp) {
  process.stdout.write(startHelp(startCommand));
  process.exit(0);
}
const tooOld = nodeTooOldForStart(join(root, "apps/relay/package.json"), process.versions.node, startCommand);
if (tooOld !== null) {
  process.stderr.write(`ringback start: ${tooOld}\n`);
  process.exit(1);
}

const dataDir = process.env.RINGBACK_HOME ?? join(homedir(), ".ringback");
const relayDataDir = process.env.RINGBACK_RELAY_DATA ?? join(homedir(), ".ringback-relay");
const relayBin = join(root, "apps/relay/dist/main.js");
const daemonBin = join(root, "apps/daemon/dist/main.js");
const hookBin = join(root, "apps/hook/dist/ringback-hook.mjs");
const webRoot = join(root, "apps/web-client/dist");
const children = [];

function say(line = "") {
  process.stdout.write(`${line}\n`);
}

let stopping = false;
function stopAll() {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
}

function fail(message) {
  process.stderr.write(`ringback start: ${message}\n`);
  stopAll();
  process.exit(1);
}

const lanWarning = lanAddressWarning(options.lanAddress);
if (lanWarning) process.stderr.write(`ringback start: ${lanWarning}\n`);

let lan = null;
if (options.isLan) {
  try {
    const address = lanAddress(options.lanAddress);
    lan = { address, ...ensureLocalCertificates(join(relayDataDir, "lan-tls"), address) };
  } catch (error) {
    fail(error.message);
  }
}
const relayHost = lan?.address ?? "127.0.0.1";
/** Node trusts the local CA too: the daemon talks to the relay over the same HTTPS as the phone. */
const trustEnv = lan ? { NODE_EXTRA_CA_CERTS: lan.caCertPath } : {};

/** A clear line before anything starts, rather than a child's failure after: is `port` free on `host`? */
function assertPortFree(port, host, option) {
  if (port === 0) return Promise.resolve();
  return new Promise((resolveFree) => {
    const probe = createServer();
    probe.once("error", (error) => {
      if (error.code !== "EADDRINUSE") return resolveFree();
      fail(
        `port ${port} on ${host} is in use (another Ringback, or another program): stop it, or start on another ` +
          `port: ${startCommand}${lan ? " --lan" : ""} ${option} ${port + 10}`,
      );
    });
    probe.listen(port, host, () => probe.close(() => resolveFree()));
  });
}

function build() {
  if (process.env.RINGBACK_START_NO_BUILD === "1") return;
  say("Building the relay, the daemon, the hook and the web app...");
  const built = turboBuild(["@ringback/relay", "@ringback/daemon", "@ringback/hook", "@ringback/web-client"]);
  if (!built.ok) fail("the build failed (see above)");
}

/** Starts a long-running child and resolves with the first stdout line that matches `ready`. */
function startService(name, args, { ready, env, onStderrLine }) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env } });
  children.push(child);
  createInterface({ input: child.stderr }).on("line", (line) => {
    onStderrLine?.(line);
    process.stderr.write(`[${name}] ${line}\n`);
  });
  return new Promise((resolveReady) => {
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      if (ready.test(line)) resolveReady(line);
      else say(`[${name}] ${line}`);
    });
    child.on("exit", (code) => {
      if (!stopping) fail(`the ${name} stopped (exit code ${code}): its last lines above say why`);
    });
  });
}

function daemonCli(args, input) {
  const result = spawnSync(process.execPath, [daemonBin, ...args], {
    cwd: root,
    env: { ...process.env, ...trustEnv, RINGBACK_HOME: dataDir },
    input,
    encoding: "utf8",
  });
  if (result.status !== 0)
    fail(`ringback ${args[0]} failed: ${result.stderr.trim() || result.stdout.trim()}`);
  return result.stdout;
}

function readDaemonConfig() {
  try {
    return JSON.parse(readFileSync(join(dataDir, "daemon.json"), "utf8"));
  } catch {
    return null;
  }
}

/** How long the relay and the daemon get to stop before they are killed. */
const STOP_GRACE_MS = 10_000;

/**
 * Ctrl-C: stops what it started and exits once they have, so a start right after (`--lan`, another port) finds the
 * daemon's data directory free rather than "a ringback daemon is already running". A second Ctrl-C does not wait.
 */
function stopAndExit() {
  if (stopping) {
    for (const child of children) child.kill("SIGKILL");
    process.exit(0);
  }
  stopAll();
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  const killLate = setTimeout(() => {
    for (const child of running) child.kill("SIGKILL");
  }, STOP_GRACE_MS);
  const exit = () => {
    clearTimeout(killLate);
    process.exit(0);
  };
  Promise.all(running.map((child) => new Promise((resolveExit) => child.once("exit", resolveExit)))).then(
    exit,
    exit,
  );
}
process.on("SIGINT", stopAndExit);
process.on("SIGTERM", stopAndExit);

await assertPortFree(options.relayPort, relayHost, "--port");
if (lan) await assertPortFree(options.caPort, relayHost, "--ca-port");
if (options.daemonPort !== undefined) await assertPortFree(options.daemonPort, "127.0.0.1", "--daemon-port");
build();

let claimCode;
const listening = await startService(
  "relay",
  [
    relayBin,
    "--host",
    relayHost,
    "--port",
    String(options.relayPort),
    "--data",
    relayDataDir,
    "--web-root",
    webRoot,
    ...(lan ? ["--tls-cert", lan.certPath, "--tls-key", lan.keyPath] : []),
    // With port 0 the address is known only once it listens; the daemon's pairing links carry it either way.
    ...(lan && options.relayPort !== 0 ? ["--public-url", `https://${relayHost}:${options.relayPort}`] : []),
  ],
  {
    ready: /^ringback relay listening on /,
    onStderrLine: (line) => {
      claimCode ??= /claim code ([0-9-]+)/.exec(line)?.[1];
    },
  },
);
const relayUrl = listening.replace(/^ringback relay listening on /, "").trim();
const previousUrl = previousRelayUrl(relayDataDir, readDaemonConfig()?.serverUrl);
rememberRelayUrl(relayDataDir, relayUrl);

if (!readDaemonConfig()?.relay?.deviceToken) {
  const claim = claimCode ? ["--claim-code", claimCode] : [];
  daemonCli(["login", "--server", relayUrl, "--name", "This computer", ...claim]);
  say("Created your Ringback account on the local relay.");
}

// `ringback run --port` saves the port as localPort in daemon.json, where the hooks and `pnpm ring` find it.
const daemonPortArgs = options.daemonPort === undefined ? [] : ["--port", String(options.daemonPort)];
const daemonLine = await startService("daemon", [daemonBin, "run", ...daemonPortArgs], {
  ready: /^ringback daemon listening on /,
  env: { ...trustEnv, RINGBACK_HOME: dataDir, RINGBACK_SERVER_URL: relayUrl },
});

const qrcode = createRequire(join(root, "apps/daemon/package.json"))("qrcode");
const context = {
  relayUrl,
  previousRelayUrl: previousUrl,
  relayDataDir,
  dataDir,
  daemonUrl: daemonLine.replace(/^ringback daemon listening on /, ""),
  startCommand,
  ringCommand: `${pnpmCommand} ring`,
  hookInstallCommand: `node ${hookBin} install`,
  pairing: JSON.parse(daemonCli(["pair", "--json"])),
  // The code path needs the passphrase the account's key comes from; a generated key has none.
  hasPassphrase: readDaemonConfig()?.e2e?.source === "passphrase",
};
say();
if (lan) {
  const ca = {
    certPath: lan.caCertPath,
    fingerprint: lan.caFingerprint,
    name: lan.caName,
    validTo: lan.caValidTo,
    servedNames: Object.values(servedNames(lan.address)).flat().join(", "),
  };
  const page = await serveCaCertificate(ca, lan.address, options.caPort).catch((error) =>
    fail(error.message),
  );
  const screen = lanScreen({
    ...context,
    ca: {
      ...ca,
      pageUrl: page.url,
      replaced: lan.replaced,
      qrCode: await qrcode.toString(page.url, { type: "terminal", small: true }),
    },
    pairingQrCode: await qrcode.toString(context.pairing.link, { type: "terminal", small: true }),
  });
  say(screen.join("\n"));
} else say(loopbackScreen(context).join("\n"));
