import { DEFAULT_LOCAL_PORT } from "./protocol-constants.js";

// Built-ins on the report path come from the runtime, not `import`: see post-report.ts.
const { readFileSync } = process.getBuiltinModule("node:fs");
const { join } = process.getBuiltinModule("node:path");

/** Where the hook finds the daemon: its port and the local API key. */
export interface DaemonLocation {
  dataDir: string;
  port: number;
  /** `undefined` when `local-api.key` is missing: the daemon has never run on this computer. */
  key: string | undefined;
}

/**
 * `{data_dir}`: `RINGBACK_HOME`, else `~/.ringback`. `HOME` is what `os.homedir()` reads first; node:os is loaded
 * only without it, as it would be on every agent turn otherwise.
 */
function ringbackDataDir(env: NodeJS.ProcessEnv): string {
  return env.RINGBACK_HOME || join(env.HOME || process.getBuiltinModule("node:os").homedir(), ".ringback");
}

function isPort(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535;
}

function readLocalPort(dataDir: string): number {
  try {
    const config: unknown = JSON.parse(readFileSync(join(dataDir, "daemon.json"), "utf8"));
    const port = (config as { localPort?: unknown } | null)?.localPort;
    return isPort(port) ? port : DEFAULT_LOCAL_PORT;
  } catch {
    return DEFAULT_LOCAL_PORT;
  }
}

function readLocalKey(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, "local-api.key"), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Reads `daemon.json` (`localPort`, default 8790 when the file or field is missing) and `local-api.key`. */
export function locateDaemon(env: NodeJS.ProcessEnv): DaemonLocation {
  const dataDir = ringbackDataDir(env);
  return { dataDir, port: readLocalPort(dataDir), key: readLocalKey(dataDir) };
}
