import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { daemonEnv } from "./daemon-process.ts";
import { eventually } from "./eventually.ts";
import { DAEMON_BIN, requireBuilt } from "./paths.ts";

/** How long the terminal may take to show what a page shows (the same relay stream). */
export const TERMINAL_WAIT_MS = 15_000;

/** `ringback listen` as a user runs it: a real child process, typed to through stdin, read on stdout. */
export interface TerminalCompanion extends AsyncDisposable {
  readonly output: () => string;
  /** Waits until the output after `from` (an offset in it) contains `text`; returns the offset after it. */
  waitFor(text: string, from?: number): Promise<number>;
  type(line: string): void;
  exited(): Promise<number | null>;
}

export function startTerminalCompanion(
  home: string,
  args: readonly string[],
  env: Record<string, string> = {},
): TerminalCompanion {
  const bin = requireBuilt(DAEMON_BIN, "@ringback/daemon");
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, "listen", ...args], {
    env: daemonEnv(home, env),
  });
  let output = "";
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    output: () => output,
    async waitFor(text, from = 0) {
      await eventually(() => output.indexOf(text, from) >= 0, TERMINAL_WAIT_MS, `"${text}" in:\n${output}`);
      return output.indexOf(text, from) + text.length;
    },
    type(line) {
      child.stdin.write(`${line}\n`);
    },
    exited: () => exit,
    async [Symbol.asyncDispose]() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exit;
      }
    },
  };
}
