import { spawn } from "node:child_process";

/** How a child ended: its 'exit' event's time (`performance.now()` ms) and what it printed. */
export interface ChildExit {
  readonly exitAt: number;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface TimedChild {
  /** Resolves once the child's output is closed, with the time of its 'exit' event (taken as it fired). */
  readonly exited: Promise<ChildExit>;
  /** SIGKILL, for a round given up on. */
  kill(): void;
}

/** `node <args>` (this Node) with `input` on stdin, timed to its 'exit' event. */
export function startTimedChild(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { input?: string; cwd?: string } = {},
): TimedChild {
  const child = spawn(process.execPath, args, { env, cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.on("error", () => undefined);
  child.stdin.end(options.input ?? "");
  let exitAt = 0;
  child.once("exit", () => {
    exitAt = performance.now();
  });
  const exited = new Promise<ChildExit>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ exitAt, code, signal, stdout, stderr }));
  });
  return { exited, kill: () => child.kill("SIGKILL") };
}
