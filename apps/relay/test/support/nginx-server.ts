import { accessSync, constants, existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { delimiter, join } from "node:path";
import { makeTemporaryDirectory, startChild } from "@ringback/test-kit";
import { type NginxListener, nginxConfig } from "./nginx-config.ts";

/*
 * nginx in the foreground for tests and the bench: a config in a temp dir, `nginx -p <dir> -c <conf> -e <log>`,
 * nothing read from /etc or written to /var. Its own imports have `.ts` specifiers, so the bench (plain
 * `node bench/*.ts`) can load it as well as vitest.
 */

export const NGINX_MISSING_MESSAGE =
  "nginx is not installed: the tests of relay instances behind a proxy need it (Debian: apt-get install nginx), " +
  "or set RINGBACK_NGINX_BIN to its binary. Set RINGBACK_SKIP_POSTGRES=1 to skip the PostgreSQL and nginx tests " +
  "on purpose.";

/** Checks (20 ms apart) of every listener before nginx counts as not started: a bound for a busy machine. */
const START_CHECKS = 750;
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
  const directory = await makeTemporaryDirectory("ringback-nginx-");
  const dir = directory.path;
  // As root, nginx's workers run as `nobody`: they must be able to reach the temp folders under `dir`.
  await chmod(dir, 0o755);
  await mkdir(join(dir, "temp"));
  const confPath = join(dir, "nginx.conf");
  await writeFile(confPath, nginxConfig({ dir, ...options }));
  // Its own process group: stopping it also stops its worker, even after a SIGKILL of the master.
  const child = startChild({
    command: binary,
    args: ["-p", dir, "-c", confPath, "-e", join(dir, "error.log")],
    isGroupLeader: true,
    name: "nginx",
  });
  const errorLog = () => readFile(join(dir, "error.log"), "utf8").catch(() => "");
  const stop = async () => {
    // SIGTERM: fast shutdown, open streams are cut (SIGQUIT would wait for hour-long SSE streams).
    await child.stop("SIGTERM", STOP_TIMEOUT_MS);
    await directory.remove();
  };
  try {
    for (const listener of options.listeners) {
      await child
        .waitFor(() => accepts(listener.port), `its listener on ${listener.port}`, START_CHECKS)
        .catch(async (error: unknown) => {
          throw new Error(`${error instanceof Error ? error.message : error}\n${await errorLog()}`);
        });
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
