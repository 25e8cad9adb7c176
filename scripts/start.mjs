// The main job: builds what runs, starts the relay (serving the web app) and the daemon on this machine with
// embedded defaults, creates the account on first run, and prints the pairing link and the command that rings.
// `--lan` serves the relay on the machine's LAN address over HTTPS with a local CA, for a phone on the same network.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { serveCaCertificate, trustInstructions } from "./lan/ca-download.mjs";
import { lanAddress } from "./lan/lan-address.mjs";
import { ensureLocalCertificates } from "./lan/local-ca.mjs";

const { values: options } = parseArgs({
  options: { lan: { type: "boolean" }, "lan-address": { type: "string" }, help: { type: "boolean" } },
});
if (options.help) {
  process.stdout.write(
    "pnpm start [--lan [--lan-address IP]]\n\n" +
      "Without options: the relay and the web app on 127.0.0.1 (this computer only).\n" +
      "--lan: on this computer's network address over HTTPS with a local certificate authority, so a phone on the\n" +
      "same network can pair and ring (it trusts the CA once; the steps are printed). --lan-address picks the address.\n",
  );
  process.exit(0);
}
const root = resolve(fileURLToPath(import.meta.url), "../..");
const relayPort = Number(process.env.RINGBACK_RELAY_PORT ?? 8787);
const dataDir = process.env.RINGBACK_HOME ?? join(homedir(), ".ringback");
const relayDataDir = process.env.RINGBACK_RELAY_DATA ?? join(homedir(), ".ringback-relay");
const relayBin = join(root, "apps/relay/dist/main.js");
const daemonBin = join(root, "apps/daemon/dist/main.js");
const hookBin = join(root, "apps/hook/dist/ringback-hook.mjs");
const webRoot = join(root, "apps/web-client/dist");
const children = [];

let lan = null;
if (options.lan || options["lan-address"]) {
  try {
    const address = lanAddress(options["lan-address"]);
    lan = { address, ...ensureLocalCertificates(join(relayDataDir, "lan-tls"), address) };
  } catch (error) {
    process.stderr.write(`ringback start: ${error.message}\n`);
    process.exit(1);
  }
}
const relayHost = lan?.address ?? "127.0.0.1";
const relayUrl = `${lan ? "https" : "http"}://${relayHost}:${relayPort}`;
/** Node trusts the local CA too: the daemon talks to the relay over the same HTTPS as the phone. */
const trustEnv = lan ? { NODE_EXTRA_CA_CERTS: lan.caCertPath } : {};

function say(line = "") {
  process.stdout.write(`${line}\n`);
}

function fail(message) {
  process.stderr.write(`ringback start: ${message}\n`);
  stopAll();
  process.exit(1);
}

function build() {
  if (process.env.RINGBACK_START_NO_BUILD === "1") return;
  say("Building the relay, the daemon, the hook and the web app...");
  const filters = ["@ringback/relay", "@ringback/daemon", "@ringback/hook", "@ringback/web-client"].flatMap(
    (name) => ["--filter", `${name}...`],
  );
  const result = spawnSync("turbo", ["run", "build", ...filters, "--output-logs=errors-only"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) fail("the build failed (see above)");
}

/** Starts a long-running child and resolves with the first stdout line that matches `ready`. */
function startService(name, args, { ready, env, onStderrLine }) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env } });
  children.push(child);
  createInterface({ input: child.stderr }).on("line", (line) => {
    onStderrLine?.(line);
    process.stderr.write(`[${name}] ${line}\n`);
  });
  return new Promise((resolveReady, rejectReady) => {
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      if (ready.test(line)) resolveReady(line);
      else say(`[${name}] ${line}`);
    });
    child.on("exit", (code) => {
      rejectReady(new Error(`${name} exited with code ${code}`));
      if (!stopping) fail(`${name} stopped (exit code ${code})`);
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

function hasRelayIdentity() {
  const file = join(dataDir, "daemon.json");
  if (!existsSync(file)) return false;
  try {
    return Boolean(JSON.parse(readFileSync(file, "utf8")).relay?.deviceToken);
  } catch {
    return false;
  }
}

let stopping = false;
function stopAll() {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
}
process.on("SIGINT", () => {
  stopAll();
  process.exit(0);
});
process.on("SIGTERM", () => {
  stopAll();
  process.exit(0);
});

build();

let claimCode;
await startService(
  "relay",
  [
    relayBin,
    "--host",
    relayHost,
    "--port",
    String(relayPort),
    "--data",
    relayDataDir,
    "--web-root",
    webRoot,
    ...(lan ? ["--tls-cert", lan.certPath, "--tls-key", lan.keyPath, "--public-url", relayUrl] : []),
  ],
  {
    ready: /^ringback relay listening on /,
    onStderrLine: (line) => {
      claimCode ??= /claim code ([0-9-]+)/.exec(line)?.[1];
    },
  },
).catch((error) => fail(`${error.message}; is port ${relayPort} in use? (RINGBACK_RELAY_PORT changes it)`));

if (!hasRelayIdentity()) {
  const claim = claimCode ? ["--claim-code", claimCode] : [];
  daemonCli(["login", "--server", relayUrl, "--name", "This computer", ...claim]);
  say("Created your Ringback account on the local relay.");
}

const daemonLine = await startService("daemon", [daemonBin, "run"], {
  ready: /^ringback daemon listening on /,
  env: { ...trustEnv, RINGBACK_HOME: dataDir, RINGBACK_SERVER_URL: relayUrl },
}).catch((error) => fail(error.message));

say();
say(`Relay and web app: ${relayUrl}   (data: ${relayDataDir})`);
say(`Daemon: ${daemonLine.replace(/^ringback daemon listening on /, "")}   (data: ${dataDir})`);
if (lan) {
  const caPort = Number(process.env.RINGBACK_CA_PORT ?? relayPort + 1);
  const download = await serveCaCertificate(lan.caCertPath, lan.address, caPort).catch((error) =>
    fail(error.message),
  );
  const qrcode = createRequire(join(root, "apps/daemon/package.json"))("qrcode");
  say();
  say(trustInstructions(download.url));
  say();
  say(await qrcode.toString(download.url, { type: "terminal", small: true }));
}
say();
// `ringback pair` says what to open and how long it is valid.
say(daemonCli(["pair"]).trimEnd());
say();
say("Then make it ring, from another terminal:");
say('  npx --yes pnpm@10.34.9 ring "Your words here"');
say("Hook it into Claude Code and Codex for real with:");
say(`  node ${hookBin} install`);
say();
say(
  "No language model is configured yet, so briefs are marked failed and the app reads the agent's own words.",
);
say("Press Ctrl-C to stop.");
