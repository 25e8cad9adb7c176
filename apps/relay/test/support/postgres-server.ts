import { execFile, spawnSync } from "node:child_process";
import { chownSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { freePort, makeTemporaryDirectory } from "@ringback/test-kit";

/*
 * A throwaway PostgreSQL server for tests and the bench: `initdb` into a temp dir, `pg_ctl start` on a free
 * 127.0.0.1 port with its unix socket in that dir, no systemd. The bench (plain `node bench/*.ts`) loads it as well
 * as vitest.
 */

/** Where Debian's `postgresql` package puts the server binaries (one folder per major version). */
const DEBIAN_POSTGRES_ROOT = "/usr/lib/postgresql";
/** The superuser of the throwaway cluster (trust auth, loopback only). */
const TEST_POSTGRES_USER = "ringback";
/** The database tests get schemas in. */
const TEST_POSTGRES_DATABASE = "ringback_test";
const START_TIMEOUT_SECONDS = 30;

export interface PostgresServer {
  /** `postgres://ringback@127.0.0.1:<port>/ringback_test` */
  readonly url: string;
  readonly port: number;
  /** `pg_ctl restart -m fast`: every connection is cut, the server is back on the same port with the same data. */
  restart(): Promise<void>;
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

/** initdb refuses to run as root: as root the cluster belongs to the `postgres` system user. */
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

/**
 * Starts a throwaway cluster. Tests run it with durability off (fast, nothing worth keeping); the bench asks for
 * `isDurable` (fsync and synchronous commit on, PostgreSQL's defaults) so its figures compare with SQLite's
 * `synchronous=FULL`.
 */
export async function startPostgresServer(options: { isDurable?: boolean } = {}): Promise<PostgresServer> {
  const bin = findPostgresBinaries();
  if (!bin) throw new Error(POSTGRES_MISSING_MESSAGE);
  const directory = await makeTemporaryDirectory("ringback-pg-");
  const dir = directory.path;
  const dataDir = join(dir, "data");
  if (process.getuid?.() === 0) {
    const owner = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const group = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    if (owner.status !== 0) throw new Error("Running as root but there is no `postgres` system user.");
    chownSync(dir, Number(owner.stdout.trim()), Number(group.stdout.trim()));
  }
  const pgCtl = join(bin, "pg_ctl");
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
    let port = 0;
    let serverOptions = "";
    /** What `pg_ctl start` and `restart` take: the data, wait for it, the log, the server's options. */
    const startArgs = () => [
      "-D",
      dataDir,
      "-w",
      "-t",
      String(START_TIMEOUT_SECONDS),
      "-l",
      join(dir, "server.log"),
      "-o",
      serverOptions,
    ];
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      // Unless the bench asks for durability: off, which makes tests fast (it never holds anything worth keeping).
      const durability = options.isDurable
        ? []
        : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"];
      serverOptions = [
        `-p ${port}`,
        "-c listen_addresses=127.0.0.1",
        `-c unix_socket_directories=${dir}`,
        ...durability,
        "-c max_connections=300",
      ].join(" ");
      try {
        await run(pgCtl, ["start", ...startArgs()]);
        break;
      } catch (error) {
        // Another process may have taken the port between the probe and the start.
        if (attempt >= 2) throw error;
      }
    }
    const admin = `postgres://${TEST_POSTGRES_USER}@127.0.0.1:${port}/postgres`;
    await psql(bin, admin, `CREATE DATABASE ${TEST_POSTGRES_DATABASE}`);
    return {
      url: `postgres://${TEST_POSTGRES_USER}@127.0.0.1:${port}/${TEST_POSTGRES_DATABASE}`,
      port,
      async restart() {
        await run(pgCtl, ["restart", "-m", "fast", ...startArgs()]);
      },
      async stop() {
        await run(pgCtl, ["stop", "-D", dataDir, "-m", "immediate", "-w"]).catch(() => {});
        await directory.remove();
      },
    };
  } catch (error) {
    await run(pgCtl, ["stop", "-D", dataDir, "-m", "immediate", "-w"]).catch(() => {});
    await directory.remove();
    throw error;
  }
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
