import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// Not the global timers: a test on a fake clock still gets a server.
import { clearTimeout, setTimeout } from "node:timers";
import { freePort, isRunning, makeTemporaryDirectory, onRunEnd } from "@ringback/test-kit";

/*
 * A throwaway PostgreSQL server for tests and the bench: `initdb` into a temp dir, then `postgres` on a free
 * 127.0.0.1 port with its unix socket in that dir, no systemd. The server is this process's own child (not
 * daemonized by `pg_ctl start`), so nothing outlives the run: it gets SIGQUIT (an immediate shutdown) when this
 * process dies, even by SIGKILL (`setpriv --pdeathsig`); a process that ends otherwise with it still running (an
 * exit, SIGINT, SIGTERM: `onRunEnd`) stops it and deletes its directory on the way out; and the directory a SIGKILL
 * left is deleted at the next start. The bench (plain `node bench/*.ts`) loads it as well as vitest.
 */

/** Where Debian's `postgresql` package puts the server binaries (one folder per major version). */
const DEBIAN_POSTGRES_ROOT = "/usr/lib/postgresql";
/** The superuser of the throwaway cluster (trust auth, loopback only). */
const TEST_POSTGRES_USER = "ringback";
/** The database tests get schemas in. */
const TEST_POSTGRES_DATABASE = "ringback_test";
/** Each cluster's directory under the system temp dir. */
const CLUSTER_DIRECTORY_PREFIX = "ringback-pg-";
/** A bound for a busy machine: a server not ready by then is stopped and the start fails with its log. */
const START_TIMEOUT_MS = 30_000;
/** What the server logs once it takes connections (initdb's `--locale=C` keeps its messages in English). */
const READY_LINE = /database system is ready to accept connections/;
/** The last this many characters of the server's log are kept for failure messages. */
const LOG_KEPT_CHARS = 16_000;

export interface PostgresServer extends AsyncDisposable {
  /** `postgres://ringback@127.0.0.1:<port>/ringback_test` */
  readonly url: string;
  readonly port: number;
  /** A fast shutdown and a start: every connection is cut, the server is back on the same port with the same data. */
  restart(): Promise<void>;
  /** An immediate shutdown, then its directory is deleted (what disposing does). */
  stop(): Promise<void>;
}

/** The folder holding initdb, pg_ctl and postgres, or null when PostgreSQL is not installed. */
export function findPostgresBinaries(): string | null {
  if (process.env.RINGBACK_POSTGRES_BIN) return process.env.RINGBACK_POSTGRES_BIN;
  if (!existsSync(DEBIAN_POSTGRES_ROOT)) return null;
  const versions = readdirSync(DEBIAN_POSTGRES_ROOT)
    .filter((name) => existsSync(join(DEBIAN_POSTGRES_ROOT, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(DEBIAN_POSTGRES_ROOT, versions[0], "bin") : null;
}

export const POSTGRES_MISSING_MESSAGE =
  "PostgreSQL is not installed: these tests need its server binaries (Debian: apt-get install postgresql). " +
  "Set RINGBACK_SKIP_POSTGRES=1 to skip them on purpose.";

/** True when the run was told to leave PostgreSQL (and nginx) tests out. */
export function isPostgresSkipped(): boolean {
  return process.env.RINGBACK_SKIP_POSTGRES === "1";
}

/** initdb and postgres refuse to run as root: as root the cluster belongs to the `postgres` system user. */
function asClusterOwner(binary: string, args: readonly string[]): [string, string[]] {
  if (process.getuid?.() === 0) return ["runuser", ["-u", "postgres", "--", binary, ...args]];
  return [binary, [...args]];
}

function run(binary: string, args: readonly string[]): Promise<string> {
  const [command, fullArgs] = asClusterOwner(binary, args);
  return new Promise((resolve, reject) => {
    execFile(command, fullArgs, { encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${binary} ${args[0] ?? ""} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** Names the process that made a cluster's directory, so a later start can tell a leftover from a live one. */
const OWNER_FILE = "owner.pid";

/**
 * Deletes the directories of clusters whose process was killed outright (SIGKILL: its server went with it, its
 * directory stayed): those whose owner and server are both gone. Another run's cluster, or one made before owners
 * were named, is left alone.
 */
function removeLeftoverClusters(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(CLUSTER_DIRECTORY_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    const pidIn = (file: string) => Number(readFileSafely(file).split("\n")[0]);
    const owner = pidIn(join(dir, OWNER_FILE));
    const server = pidIn(join(dir, "data", "postmaster.pid"));
    if (!owner || isRunning(owner) || (server && isRunning(server))) continue;
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

function readFileSafely(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/**
 * Starts a throwaway cluster. Tests run it with durability off (fast, nothing worth keeping); the bench asks for
 * `isDurable` (fsync and synchronous commit on, PostgreSQL's defaults) so its figures compare with SQLite's
 * `synchronous=FULL`.
 */
export async function startPostgresServer(options: { isDurable?: boolean } = {}): Promise<PostgresServer> {
  const bin = findPostgresBinaries();
  if (!bin) throw new Error(POSTGRES_MISSING_MESSAGE);
  removeLeftoverClusters();
  const directory = await makeTemporaryDirectory(CLUSTER_DIRECTORY_PREFIX);
  const dir = directory.path;
  writeFileSync(join(dir, OWNER_FILE), `${process.pid}\n`);
  const dataDir = join(dir, "data");
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const owner = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const group = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    if (owner.status !== 0) throw new Error("Running as root but there is no `postgres` system user.");
    chownSync(dir, Number(owner.stdout.trim()), Number(group.stdout.trim()));
  }
  let server: ClusterProcess | null = null;
  const stopNow = () => {
    // pg_ctl finds the server by its data directory and waits until it is gone.
    const [command, args] = asClusterOwner(join(bin, "pg_ctl"), [
      "stop",
      "-D",
      dataDir,
      "-m",
      "immediate",
      "-w",
    ]);
    if (server?.isRunning) spawnSync(command, args, { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  };
  // vitest skips its global teardown after SIGINT or SIGTERM, and its pool ends a worker with SIGTERM.
  const forget = onRunEnd(stopNow);
  const stop = async () => {
    forget();
    await server?.stop("SIGQUIT");
    await directory.remove();
  };
  try {
    await run(join(bin, "initdb"), [
      "-D",
      dataDir,
      "-U",
      TEST_POSTGRES_USER,
      "--auth=trust",
      "--no-sync",
      "--encoding=UTF8",
      "--locale=C",
    ]);
    // Unless the bench asks for durability: off, which makes tests fast (it never holds anything worth keeping).
    const durability = options.isDurable
      ? []
      : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"];
    let port = 0;
    const serverArgs = () => [
      "-D",
      dataDir,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${dir}`,
      ...durability,
      "-c",
      "max_connections=300",
    ];
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      server = startClusterProcess(join(bin, "postgres"), serverArgs(), isRoot);
      try {
        await server.ready;
        break;
      } catch (error) {
        // It exited: another process may have taken the port between the probe and the start.
        if (attempt >= 2 || server.isRunning) throw error;
      }
    }
    const admin = `postgres://${TEST_POSTGRES_USER}@127.0.0.1:${port}/postgres`;
    await psql(bin, admin, `CREATE DATABASE ${TEST_POSTGRES_DATABASE}`);
    return {
      url: `postgres://${TEST_POSTGRES_USER}@127.0.0.1:${port}/${TEST_POSTGRES_DATABASE}`,
      port,
      async restart() {
        // SIGINT: a fast shutdown (`pg_ctl stop -m fast`), then the same server again.
        await server?.stop("SIGINT");
        server = startClusterProcess(join(bin, "postgres"), serverArgs(), isRoot);
        await server.ready;
      },
      stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One run of `postgres`, this process's child. */
interface ClusterProcess {
  /** Resolves once it takes connections; fails with its log when it exits or is not ready in time. */
  readonly ready: Promise<void>;
  readonly isRunning: boolean;
  /** Sends `signal` (SIGQUIT: immediate shutdown, SIGINT: fast) unless it has exited, and waits for the exit. */
  stop(signal: NodeJS.Signals): Promise<void>;
}

function startClusterProcess(postgres: string, args: readonly string[], isRoot: boolean): ClusterProcess {
  // The server gets SIGQUIT when the thread that started it ends: a run killed outright leaves no server.
  const owner = isRoot ? ["--reuid=postgres", "--regid=postgres", "--init-groups"] : [];
  const child: ChildProcess = spawn(
    "setpriv",
    [...owner, "--pdeathsig", "SIGQUIT", "--", postgres, ...args],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let log = "";
  let isRunning = true;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => {
      isRunning = false;
      resolve();
    });
    child.once("error", () => {
      isRunning = false;
      resolve();
    });
  });
  const ready = new Promise<void>((resolve, reject) => {
    const failed = (why: string) => new Error(`postgres ${why}:\n${log}`);
    const timer = setTimeout(() => {
      reject(failed(`was not ready after ${START_TIMEOUT_MS} ms`));
      child.kill("SIGQUIT");
    }, START_TIMEOUT_MS);
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      log = (log + chunk).slice(-LOG_KEPT_CHARS);
      if (READY_LINE.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(failed(`could not start (${error.message})`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(failed(`exited (${code ?? signal}) before it was ready`));
    });
  });
  // Once ready, a later exit is not a start failure (a restart or stop ends it on purpose).
  ready.catch(() => undefined);
  return {
    ready,
    get isRunning() {
      return isRunning;
    },
    async stop(signal) {
      if (isRunning) child.kill(signal);
      await exited;
    },
  };
}

/** Runs one statement with the cluster's own psql (as the current user: it connects over TCP, trust auth). */
function psql(bin: string, url: string, statement: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      join(bin, "psql"),
      [url, "-v", "ON_ERROR_STOP=1", "-q", "-c", statement],
      { encoding: "utf8" },
      (error, _stdout, stderr) => (error ? reject(new Error(`psql failed: ${stderr}`)) : resolve()),
    );
  });
}
