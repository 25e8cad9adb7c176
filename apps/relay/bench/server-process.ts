import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const GC_HOOK = fileURLToPath(new URL("./gc-on-signal.mjs", import.meta.url));
const MEMORY_LINE = /bench-memory (\{.*\})\n/g;
const STOP_GRACE_MS = 5000;
/** Linux clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface ProcessMemory {
  readonly rss: number;
  readonly heapUsed: number;
}

/** A server the bench started in its own process, so its memory and CPU are its own. */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** Memory in use after a full garbage collection in the process. */
  memoryAfterGc(): Promise<ProcessMemory>;
  /** User + system CPU time the process has used so far, in seconds (from /proc/<pid>/stat). */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * Starts `node --expose-gc <script> <args>` (with the bench's GC-on-SIGUSR2 hook) and resolves with the URL it
 * prints on stdout, matched by `listening` (first group).
 */
export async function startServerProcess(
  script: string,
  args: readonly string[],
  listening: RegExp,
): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--expose-gc", "--import", GC_HOOK, script, ...args], {
    // stdin: the pipe whose end tells the server that the bench is gone (gc-on-signal.mjs).
    stdio: ["pipe", "pipe", "ignore"],
  });
  // Never what keeps the bench running.
  (child.stdin as { unref?: () => void } | null)?.unref?.();
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
      child.once("exit", () => reject(new Error(`${script} exited (is dist/ built?).`)));
      check();
    });
  const url = await waitFor(() => stdout.match(listening)?.[1]);
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    async memoryAfterGc() {
      const seen = [...stdout.matchAll(MEMORY_LINE)].length;
      child.kill("SIGUSR2");
      const line = await waitFor(() => [...stdout.matchAll(MEMORY_LINE)][seen]?.[1]);
      return JSON.parse(line) as ProcessMemory;
    },
    cpuSeconds() {
      // The fields after the parenthesised command name: utime and stime are the 12th and 13th of them.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // A server closing thousands of streams gets a few seconds, then it is killed: the bench leaves nothing behind.
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
