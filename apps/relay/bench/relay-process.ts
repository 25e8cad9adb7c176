import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));
const GC_HOOK = fileURLToPath(new URL("./gc-on-signal.mjs", import.meta.url));
const LISTENING = /ringback relay listening on (http:\/\/\S+)/;
const MEMORY_LINE = /bench-memory (\{.*\})\n/g;
const STOP_GRACE_MS = 5000;

export interface RelayMemory {
  readonly rss: number;
  readonly heapUsed: number;
}

/** The built relay in its own process, so its memory and CPU are its own. */
export interface RelayProcess {
  readonly url: string;
  /** Memory in use after a full garbage collection in the relay process. */
  memoryAfterGc(): Promise<RelayMemory>;
  stop(): Promise<void>;
}

/** Starts the relay on 127.0.0.1, a free port, open signup, data in `dataDir`, plus `args` (e.g. `--database`). */
export async function startRelayProcess(
  dataDir: string,
  args: readonly string[] = [],
): Promise<RelayProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      GC_HOOK,
      BIN,
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--data",
      dataDir,
      "--open-signup",
      ...args,
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  let stdout = "";
  const listeners = new Set<() => void>();
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    for (const listener of [...listeners]) listener();
  });
  const waitFor = <T>(read: () => T | undefined): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const value = read();
        if (value === undefined) return;
        listeners.delete(check);
        resolve(value);
      };
      listeners.add(check);
      child.once("exit", () => reject(new Error("The relay exited (is dist/ built?).")));
      check();
    });
  const url = await waitFor(() => stdout.match(LISTENING)?.[1]);
  return {
    url,
    async memoryAfterGc() {
      const seen = [...stdout.matchAll(MEMORY_LINE)].length;
      child.kill("SIGUSR2");
      const line = await waitFor(() => [...stdout.matchAll(MEMORY_LINE)][seen]?.[1]);
      return JSON.parse(line) as RelayMemory;
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // A relay closing a thousand streams gets a few seconds, then it is killed: the bench leaves nothing behind.
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      });
    },
  };
}
