import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { CONFIG_FILE } from "../../src/runtime/config-file.js";
import { readTextIfExists } from "../../src/runtime/private-file.js";
import { DAEMON_BIN, daemonEnv, type Exit } from "./daemon-process.js";
import { eventually } from "./eventually.js";

/** A port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

/** Sets `localPort` in daemon.json, keeping the rest: the hook finds the daemon there. */
export async function setLocalPort(home: string, port: number): Promise<void> {
  const path = join(home, CONFIG_FILE);
  const config = JSON.parse((await readTextIfExists(path)) ?? "{}") as object;
  await writeFile(path, JSON.stringify({ ...config, localPort: port }), { mode: 0o600 });
}

export interface PortDaemon {
  url: string;
  stderr(): string;
  /** SIGTERM (a clean stop) or SIGKILL (a crash), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/** `ringback run` on daemon.json's localPort (where the hook looks), resolved once it listens. */
export async function startDaemonOnItsPort(
  home: string,
  env: Record<string, string> = {},
): Promise<PortDaemon> {
  const child = spawn(process.execPath, [DAEMON_BIN, "run"], {
    env: daemonEnv(home, env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let exit: Exit | undefined;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    }),
  );
  await eventually(() => /listening on (http:\/\/\S+)/.test(stdout) || exit !== undefined, 15_000);
  const url = stdout.match(/listening on (http:\/\/\S+)/)?.[1];
  if (!url) throw new Error(`the daemon did not start:\n${stderr}`);
  return {
    url,
    stderr: () => stderr,
    stop: async (signal = "SIGTERM") => {
      if (exit === undefined) child.kill(signal);
      return exited;
    },
  };
}
