import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { aad, type E2eKey, openJson, parseKey } from "@ringback/e2e-crypto";
import { DaemonConfig, type DaemonEventPost, SealedReportPayload } from "@ringback/protocol";
import { CONFIG_FILE } from "../../src/runtime/config-file.js";
import { LOCAL_KEY_FILE } from "../../src/runtime/local-key.js";

/** The built bin; tests run after `pnpm --filter @ringback/daemon build` (turbo does it before `test`). */
export const DAEMON_BIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));
const LISTENING_LINE = /^ringback daemon listening on http:\/\/127\.0\.0\.1:(\d+)$/m;
const START_TIMEOUT_MS = 15_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The environment of a daemon under test: nothing from the developer's own RINGBACK_* or home. */
export function daemonEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, LANG: "en_US.UTF-8", RINGBACK_HOME: home, ...extra };
}

function spawnDaemon(args: string[], env: NodeJS.ProcessEnv) {
  if (!existsSync(DAEMON_BIN))
    throw new Error(`${DAEMON_BIN} is missing: run pnpm --filter @ringback/daemon build`);
  // process.execPath is the Node 24 that pnpm put first on PATH for this test run.
  const child = spawn(process.execPath, [DAEMON_BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  const output = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
  });
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output, exited };
}

/** Runs `ringback <args>` to its end. */
export async function runDaemonCommand(args: string[], env: NodeJS.ProcessEnv) {
  const { output, exited } = spawnDaemon(args, env);
  const exit = await exited;
  return { ...exit, ...output };
}

export interface DaemonProcess {
  port: number;
  url: string;
  child: ChildProcess;
  exited: Promise<Exit>;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<Exit>;
  /** SIGKILL (a crash), then waits for the exit. */
  kill(): Promise<Exit>;
}

/** A daemon being started: kill it before it listens, or wait for `listening`. */
export interface DaemonLaunch {
  child: ChildProcess;
  exited: Promise<Exit>;
  /** Resolves once the daemon prints its listening line; rejects if it exits first. */
  listening: Promise<DaemonProcess>;
  kill(): Promise<Exit>;
}

/** Spawns `ringback run --port 0` on `home` without waiting for it. */
export function launchDaemon(home: string, extraEnv: Record<string, string> = {}): DaemonLaunch {
  const { child, output, exited } = spawnDaemon(["run", "--port", "0"], daemonEnv(home, extraEnv));
  const signalAndWait = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const listening = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`daemon did not start:\n${output.stderr}`)),
      START_TIMEOUT_MS,
    );
    const onData = () => {
      const match = output.stdout.match(LISTENING_LINE);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      resolve(Number(match[1]));
    };
    child.stdout?.on("data", onData);
    exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`daemon exited (${exit.code ?? exit.signal}) before listening:\n${output.stderr}`));
    }, reject);
  }).then(
    (port): DaemonProcess => ({
      port,
      url: `http://127.0.0.1:${port}`,
      child,
      exited,
      stdout: () => output.stdout,
      stderr: () => output.stderr,
      stop: () => signalAndWait("SIGTERM"),
      kill: () => signalAndWait("SIGKILL"),
    }),
  );
  // A launch killed on purpose before it listens must not leave an unhandled rejection behind.
  listening.catch(() => undefined);
  return { child, exited, listening, kill: () => signalAndWait("SIGKILL") };
}

/** Starts `ringback run --port 0` on `home` and resolves once it prints its listening line. */
export function startDaemonProcess(
  home: string,
  extraEnv: Record<string, string> = {},
): Promise<DaemonProcess> {
  return launchDaemon(home, extraEnv).listening;
}

export async function readLocalKey(home: string): Promise<string> {
  return (await readFile(join(home, LOCAL_KEY_FILE), "utf8")).trim();
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
