import { startChild } from "@ringback/test-kit";
import { daemonEnv } from "./daemon-process.ts";
import { DAEMON_BIN, requireBuilt } from "./paths.ts";

/** How long the terminal may take to show what a page shows (the same relay stream): checks 20 ms apart. */
export const TERMINAL_WAIT_CHECKS = 750;

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
  const child = startChild({
    args: [bin, "listen", ...args],
    env: daemonEnv(home, env),
    hasOpenStdin: true,
    name: "ringback listen",
  });
  return {
    output: () => child.output,
    async waitFor(text, from = 0) {
      await child.waitFor(() => child.output.indexOf(text, from) >= 0, `"${text}"`, TERMINAL_WAIT_CHECKS);
      return child.output.indexOf(text, from) + text.length;
    },
    type: (line) => child.type(line),
    exited: async () => (await child.exited).code,
    async [Symbol.asyncDispose]() {
      await child.stop("SIGTERM");
    },
  };
}
