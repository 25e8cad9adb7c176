import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { aad, type E2eKey, openJson, parseKey } from "@ringback/e2e-crypto";
import { DaemonConfig, type DaemonEventPost, LocalStatus, SealedReportPayload } from "@ringback/protocol";
import { type ChildResult, daemonTestEnv, type Exit, runToEnd, startChild } from "@ringback/test-kit";
import { CONFIG_FILE } from "../../src/runtime/files/config-file.js";
import { readTextIfExists } from "../../src/runtime/files/private-file.js";
import { LOCAL_KEY_FILE } from "../../src/runtime/keys/local-key.js";

/** The built bin; tests run after `pnpm --filter @ringback/daemon build` (turbo does it before `test`). */
const DAEMON_BIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));
const LISTENING_LINE = /^ringback daemon listening on http:\/\/127\.0\.0\.1:(\d+)$/m;
/** Quiet checks (20 ms apart) a daemon may take to listen on a busy machine. */
const START_CHECKS = 750;

/** The environment of a daemon under test: nothing from the developer's own RINGBACK_* or home. */
export const daemonEnv = daemonTestEnv;

function builtBin(): string {
  if (!existsSync(DAEMON_BIN))
    throw new Error(`${DAEMON_BIN} is missing: run pnpm --filter @ringback/daemon build`);
  return DAEMON_BIN;
}

/** Runs `ringback <args>` to its end with `stdin` as its input (empty when not given). */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv, stdin = ""): Promise<ChildResult> {
  // process.execPath is the Node 24 that pnpm put first on PATH for this test run.
  return runToEnd({ args: [builtBin(), ...args], env, input: stdin });
}

/** A started `ringback run`; disposing kills it. */
export interface DaemonProcess extends AsyncDisposable {
  port: number;
  url: string;
  pid: number;
  exited: Promise<Exit>;
  stdout(): string;
  stderr(): string;
  /** SIGTERM (a clean stop) or another signal, then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
  /** SIGKILL (a crash), then waits for the exit. */
  kill(): Promise<Exit>;
}

/** A daemon being started: kill it before it listens, or wait for `listening`. */
export interface DaemonLaunch {
  exited: Promise<Exit>;
  /** Resolves once the daemon prints its listening line; rejects if it exits first. */
  listening: Promise<DaemonProcess>;
  kill(): Promise<Exit>;
}

/** Spawns `ringback run --port 0` on `home` (or `ringback <args>`) without waiting for it. */
export function launchDaemon(
  home: string,
  extraEnv: Record<string, string> = {},
  args: readonly string[] = ["run", "--port", "0"],
): DaemonLaunch {
  const child = startChild({
    args: [builtBin(), ...args],
    env: daemonEnv(home, extraEnv),
    name: "the daemon",
  });
  const listening = child.ready(LISTENING_LINE, START_CHECKS).then((match): DaemonProcess => {
    const port = Number(match[1]);
    return {
      port,
      url: `http://127.0.0.1:${port}`,
      pid: child.pid,
      exited: child.exited,
      stdout: () => child.stdout,
      stderr: () => child.stderr,
      stop: (signal) => child.stop(signal),
      kill: () => child.kill(),
      [Symbol.asyncDispose]: () => child[Symbol.asyncDispose](),
    };
  });
  // A launch killed on purpose before it listens must not leave an unhandled rejection behind.
  listening.catch(() => undefined);
  return { exited: child.exited, listening, kill: () => child.kill() };
}

/** Starts `ringback run --port 0` on `home` and resolves once it prints its listening line. */
export function startDaemonProcess(
  home: string,
  extraEnv: Record<string, string> = {},
): Promise<DaemonProcess> {
  return launchDaemon(home, extraEnv).listening;
}

/** `ringback run` on daemon.json's localPort (where the hook looks), resolved once it listens. */
export function startDaemonOnItsPort(
  home: string,
  extraEnv: Record<string, string> = {},
): Promise<DaemonProcess> {
  return launchDaemon(home, extraEnv, ["run"]).listening;
}

export async function readLocalKey(home: string): Promise<string> {
  return (await readFile(join(home, LOCAL_KEY_FILE), "utf8")).trim();
}

/** The relay device id of the computer under test, as `writeRelayLogin` logs it in: decisions are sealed for it. */
export const COMPUTER_ID = "dev_laptop";

/**
 * Writes daemon.json (600) as a login leaves it: the computer COMPUTER_ID of account `acc_test` on the relay at
 * `serverUrl`, with a device token any stand-in relay takes.
 */
export async function writeRelayLogin(home: string, serverUrl: string): Promise<void> {
  await writeFile(
    join(home, CONFIG_FILE),
    JSON.stringify({
      serverUrl,
      relay: { deviceToken: "computer-token-0123456789", accountId: "acc_test", deviceId: COMPUTER_ID },
    }),
    { mode: 0o600 },
  );
}

/** Sets `localPort` in daemon.json, keeping the rest: the hook finds the daemon there. */
export async function setLocalPort(home: string, port: number): Promise<void> {
  const path = join(home, CONFIG_FILE);
  const config = JSON.parse((await readTextIfExists(path)) ?? "{}") as object;
  await writeFile(path, JSON.stringify({ ...config, localPort: port }), { mode: 0o600 });
}

export async function readDaemonConfig(home: string): Promise<DaemonConfig> {
  return DaemonConfig.parse(JSON.parse(await readFile(join(home, CONFIG_FILE), "utf8")));
}

/** The end-to-end key the daemon seals with, read from its daemon.json. */
export async function readDaemonKey(home: string): Promise<E2eKey> {
  const { e2e } = await readDaemonConfig(home);
  if (!e2e) throw new Error("daemon.json has no e2e key");
  return parseKey(e2e.key);
}

/** The report and brief of a post to the relay, opened with the daemon's key as a device opens them. */
export async function openReportPost(
  home: string,
  post: { body: Pick<DaemonEventPost, "eventId" | "sealed"> },
): Promise<SealedReportPayload> {
  const key = await readDaemonKey(home);
  return SealedReportPayload.parse(await openJson(key, aad.report(post.body.eventId), post.body.sealed));
}

/** Posts to the daemon as the hook does: loopback Host (fetch sets it), the local key, JSON. */
export function postReport(daemon: { url: string }, localKey: string, body: unknown): Promise<Response> {
  return fetch(`${daemon.url}/report`, {
    method: "POST",
    headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * `GET /local/status` as `ringback doctor` asks it: what the outbox still holds and how its last report ended. A test
 * that proves a report is not sent again waits for the outbox to say it holds nothing, then counts the posts.
 */
export async function readLocalStatus(daemon: { url: string }, localKey: string): Promise<LocalStatus> {
  const response = await fetch(`${daemon.url}/local/status`, {
    headers: { authorization: `Bearer ${localKey}` },
  });
  return LocalStatus.parse(await response.json());
}
