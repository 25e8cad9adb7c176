import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

// The spec's files in {data_dir} ("Daemon configuration file", "Other local files"): the hook and the CLI find
// the running daemon through them, so the harness writes and reads them as a user's tools would.
const CONFIG_FILE = "daemon.json";
const LOCAL_KEY_FILE = "local-api.key";

async function readConfig(home: string): Promise<Record<string, unknown>> {
  try {
    return JSON.parse(await readFile(join(home, CONFIG_FILE), "utf8")) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
}

/** Sets `localPort` in daemon.json, keeping the rest: `ringback run`, the hook and the CLI use that port. */
export async function setLocalPort(home: string, port: number): Promise<void> {
  const config = await readConfig(home);
  await writeFile(join(home, CONFIG_FILE), JSON.stringify({ ...config, localPort: port }), { mode: 0o600 });
}

/** The local API key the daemon wrote at its first start. */
export async function readLocalKey(home: string): Promise<string> {
  return (await readFile(join(home, LOCAL_KEY_FILE), "utf8")).trim();
}

/** Writes what the hook needs to find a daemon: daemon.json's `localPort` and the local key (see the bench). */
export async function writeHookView(home: string, port: number, localKey: string): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, CONFIG_FILE), JSON.stringify({ localPort: port }), { mode: 0o600 });
  await writeFile(join(home, LOCAL_KEY_FILE), `${localKey}\n`, { mode: 0o600 });
}

/** The end-to-end key daemon.json holds now (`e2e.key`); empty when there is none. */
export async function readDaemonConfigKey(home: string): Promise<string> {
  const e2e = (await readConfig(home)).e2e as { key?: unknown } | undefined;
  return typeof e2e?.key === "string" ? e2e.key : "";
}
