import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { type NginxListener, nginxConfig } from "./nginx-config.ts";

/*
 * nginx in the foreground for tests and the bench: a config in a temp dir, `nginx -p <dir> -c <conf> -e <log>`,
 * nothing read from /etc or written to /var. Imports node builtins only (and with `.ts` specifiers), so the bench
 * (plain `node bench/*.ts`) can load it as well as vitest.
 */

export const NGINX_MISSING_MESSAGE =
  "nginx is not installed: the tests of relay instances behind a proxy need it (Debian: apt-get install nginx), " +
  "or set RINGBACK_NGINX_BIN to its binary. Set RINGBACK_SKIP_POSTGRES=1 to skip the PostgreSQL and nginx tests " +
  "on purpose.";

const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 10_000;

/** The nginx binary: RINGBACK_NGINX_BIN, else `nginx` on PATH or in /usr/sbin (Debian's place), else null. */
export function findNginx(): string | null {
  const configured = process.env.RINGBACK_NGINX_BIN;
  if (configured) return existsSync(configured) && isExecutable(configured) ? configured : null;
  const folders = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/usr/local/sbin"];
  for (const folder of folders) {
    const candidate = join(folder, "nginx");
    if (folder !== "" && existsSync(candidate) && isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface NginxServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` of the listener with this name. */
  url(listenerName: string): string;
  readonly dir: string;
  /** What nginx wrote to its error log so far (for failure messages). */
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/** Starts nginx with `listeners` and resolves once every listener accepts connections. */
export async function startNginx(options: {
  readonly listeners: readonly NginxListener[];
  readonly failTimeoutSeconds?: number;
  readonly hasAccessLog?: boolean;
}): Promise<NginxServer> {
  const binary = findNginx();
  if (!binary) throw new Error(NGINX_MISSING_MESSAGE);
  const dir = await mkdtemp(join(tmpdir(), "ringback-nginx-"));
  // As root, nginx's workers run as `nobody`: they must be able to reach the temp folders under `dir`.
  await chmod(dir, 0o755);
  await mkdir(join(dir, "temp"));
  const confPath = join(dir, "nginx.conf");
  await writeFile(confPath, nginxConfig({ dir, ...options }));
  // Its own process group: stopping it also stops its worker, even after a SIGKILL of the master.
  const child: ChildProcess = spawn(binary, ["-p", dir, "-c", confPath, "-e", join(dir, "error.log")], {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const errorLog = () => readFile(join(dir, "error.log"), "utf8").catch(() => "");
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGTERM: fast shutdown, open streams are cut (SIGQUIT would wait for hour-long SSE streams).
      signalGroup(child, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child, "SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (const listener of options.listeners) {
      while (!(await accepts(listener.port))) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`nginx exited at start: ${stderr}${await errorLog()}`);
        if (Date.now() > deadline) throw new Error(`nginx did not listen in time: ${await errorLog()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const ports = new Map(options.listeners.map((listener) => [listener.name, listener.port]));
  return {
    dir,
    url(listenerName) {
      const port = ports.get(listenerName);
      if (port === undefined) throw new Error(`nginx has no listener "${listenerName}".`);
      return `http://127.0.0.1:${port}`;
    },
    errorLog,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
