import { type ChildResult, type Exit, runToEnd, startChild } from "@ringback/test-kit";

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
  /** Resolves once `check` holds, re-checked on its every output; fails if it exits first (see the kit). */
  waitFor(check: () => boolean, what: string, checks?: number): Promise<void>;
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
  /** Quiet checks (20 ms apart) it may take to get ready (default 1,500). */
  readonly startChecks?: number;
}

const START_CHECKS = 1_500;
const STOP_GRACE_MS = 10_000;

/** Starts `node <args>` (the workspace's Node, as pnpm runs this process) and resolves once it is ready. */
export async function startServiceProcess(options: ServiceOptions): Promise<ServiceProcess> {
  const child = startChild({ args: options.args, env: options.env, name: `the ${options.name}` });
  const ready = await child.ready(options.readyLine, options.startChecks ?? START_CHECKS);
  const stop = (signal: NodeJS.Signals = "SIGTERM", graceMs = STOP_GRACE_MS) => child.stop(signal, graceMs);
  return {
    ready,
    pid: child.pid,
    stdout: () => child.stdout,
    stderr: () => child.stderr,
    hasExited: () => child.hasExited,
    waitFor: async (check, what, checks) => {
      await child.waitFor(check, what, checks);
    },
    stop,
    [Symbol.asyncDispose]: async () => {
      await stop();
    },
  };
}

/** What a command that runs to its end printed. */
export type CommandResult = ChildResult;

/** Runs `node <args>` (or `program <args>`) to its end with `stdin` as its input (in `cwd` when given). */
export function runCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  stdin = "",
  cwd?: string,
  program = process.execPath,
): Promise<CommandResult> {
  return runToEnd({ command: program, args, env, input: stdin, cwd });
}
