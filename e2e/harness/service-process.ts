import { spawn } from "node:child_process";
import { eventually } from "./eventually.ts";

/** How a child process ended. */
interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A long-running child (relay, daemon) that printed its ready line. Disposing stops it. */
export interface ServiceProcess extends AsyncDisposable {
  /** The ready line's match (its groups carry the address the service printed). */
  readonly ready: RegExpMatchArray;
  /** The process id, for what the bench reads under /proc. */
  readonly pid: number;
  stdout(): string;
  stderr(): string;
  /** Whether the process has exited. */
  hasExited(): boolean;
  /** Sends `signal` (SIGTERM: a clean stop; SIGKILL: a crash) and waits for the exit; SIGKILL after `graceMs`. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<Exit>;
}

export interface ServiceOptions {
  /** For error messages: "relay", "daemon". */
  readonly name: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Matched against stdout; the service is ready once it matches. */
  readonly readyLine: RegExp;
  readonly startTimeoutMs?: number;
}

const START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 10_000;

/** Starts `node <args>` (the workspace's Node, as pnpm runs this process) and resolves once it is ready. */
export async function startServiceProcess(options: ServiceOptions): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...options.args], {
    env: options.env,
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
  const stop = async (signal: NodeJS.Signals = "SIGTERM", graceMs = STOP_GRACE_MS): Promise<Exit> => {
    if (exit === undefined) child.kill(signal);
    const timer = setTimeout(() => exit === undefined && child.kill("SIGKILL"), graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };
  const timeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
  try {
    await eventually(
      () => options.readyLine.test(stdout) || exit !== undefined,
      timeoutMs,
      `${options.name} start`,
    );
  } catch (error) {
    await stop("SIGKILL");
    throw new Error(`the ${options.name} did not start within ${timeoutMs} ms:\n${stderr}`, { cause: error });
  }
  const ready = stdout.match(options.readyLine);
  if (!ready)
    throw new Error(
      `the ${options.name} exited (${exit?.code ?? exit?.signal}) before it was ready:\n${stderr}`,
    );
  return {
    ready,
    pid: child.pid ?? 0,
    stdout: () => stdout,
    stderr: () => stderr,
    hasExited: () => exit !== undefined,
    stop,
    [Symbol.asyncDispose]: async () => {
      await stop();
    },
  };
}

/** What a command that runs to its end printed. */
export interface CommandResult extends Exit {
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <args>` (or `program <args>`) to its end with `stdin` as its input (in `cwd` when given). */
export function runCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  stdin = "",
  cwd?: string,
  program = process.execPath,
): Promise<CommandResult> {
  const child = spawn(program, [...args], { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
