import { spawn } from "node:child_process";

/** How a child process ended, with everything it printed. */
export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Past this the whole process group is killed and the run fails; generous, never a speed check. */
  timeoutMs: number;
  /** Written to stdin, which is then closed; without it stdin is closed at once. */
  input?: string;
}

/**
 * Runs a command to its end, stdin closed (after `input`, if any). It leads its own process group, so that a timeout also ends
 * what it started (Claude Code's npm wrapper, the native binary, the hooks).
 */
export function runToEnd(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    child.stdin.on("error", () => {}); // A child that exits without reading its input is not an error here.
    child.stdin.end(options.input ?? "");
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      killGroup(child.pid);
      reject(
        new Error(
          `${command} ${args.join(" ")} did not end within ${options.timeoutMs} ms\n--- stdout\n${stdout}\n--- stderr\n${stderr}`,
        ),
      );
    }, options.timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${command} could not start: ${error.message}`, { cause: error }));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Fails with everything the command printed unless it exited 0. */
export function expectSuccess(what: string, result: ChildResult): ChildResult {
  if (result.code !== 0) {
    throw new Error(
      `${what} exited with ${result.code ?? result.signal}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
    );
  }
  return result;
}
