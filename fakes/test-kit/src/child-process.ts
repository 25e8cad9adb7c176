import { type ChildProcess, spawn } from "node:child_process";
import { basename } from "node:path";
import type { Writable } from "node:stream";
// Not the global timers: a test on a fake clock still gets its grace period and its time limit.
import { clearTimeout, setTimeout } from "node:timers";
import { Changes, eventually } from "./eventually.js";
import { killOnExit } from "./live-children.js";

/** How a child process ended. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** How a child process ended, with everything it printed. */
export interface ChildResult extends Exit {
  readonly stdout: string;
  readonly stderr: string;
}

export interface ChildOptions {
  /** The arguments; without `command`, those of the Node.js running the tests (the workspace's, as pnpm runs it). */
  readonly args: readonly string[];
  /** The program (default `process.execPath`). */
  readonly command?: string;
  /** The child's whole environment (this process's when not given). */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /**
   * Written to stdin, which is then closed; a function writes (and ends) it itself, as an agent would, and may wait
   * on the child's output to pace its writes.
   */
  readonly input?: string | ((stdin: Writable, child: StartedChild) => void | Promise<void>);
  /** Keeps stdin open for `type()` (without it and without `input`, the child has no stdin). */
  readonly hasOpenStdin?: boolean;
  /** Leads its own process group: every signal, and the kill at dispose, also reaches what it started. */
  readonly isGroupLeader?: boolean;
  /** For messages: "the relay" (default: the program or script name). */
  readonly name?: string;
}

/** What `check` returns while a condition does not hold yet. */
type NotYet = false | null | undefined;

/**
 * A child process started by a test: its output collected, waits re-checked on every chunk of it, and killed
 * (its whole group, when it leads one) at dispose, or when the test process exits with it still running.
 */
export class StartedChild implements AsyncDisposable {
  readonly name: string;
  /** Resolves once the process has exited. */
  readonly exited: Promise<Exit>;
  /** Resolves once the process has exited and its output has ended too. */
  readonly closed: Promise<Exit>;
  readonly #child: ChildProcess;
  readonly #isGroupLeader: boolean;
  readonly #changes = new Changes();
  #stdout = "";
  #stderr = "";
  #output = "";
  #exit: Exit | undefined;
  #isClosed = false;
  #startError: Error | undefined;
  #inputError: Error | undefined;

  constructor(options: ChildOptions) {
    const command = options.command ?? process.execPath;
    this.name =
      options.name ?? basename(options.command === undefined ? (options.args[0] ?? command) : command);
    this.#isGroupLeader = options.isGroupLeader ?? false;
    const hasStdin = options.input !== undefined || options.hasOpenStdin === true;
    this.#child = spawn(command, [...options.args], {
      env: options.env,
      cwd: options.cwd,
      stdio: [hasStdin ? "pipe" : "ignore", "pipe", "pipe"],
      detached: this.#isGroupLeader,
    });
    killOnExit(this.#child, this.#isGroupLeader);
    this.#child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      this.#stdout += chunk;
      this.#output += chunk;
      this.#changes.notify();
    });
    this.#child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      this.#stderr += chunk;
      this.#output += chunk;
      this.#changes.notify();
    });
    this.exited = new Promise((resolve) => {
      const settle = (exit: Exit) => {
        this.#exit ??= exit;
        this.#changes.notify();
        resolve(this.#exit);
      };
      this.#child.once("exit", (code, signal) => settle({ code, signal }));
      // A program that cannot start (no such file) never exits: it ends here.
      this.#child.once("error", (error) => {
        if (this.#child.pid !== undefined) return;
        this.#startError = new Error(`${this.name} could not start: ${error.message}`, { cause: error });
        settle({ code: null, signal: null });
      });
    });
    this.closed = new Promise((resolve) => {
      const settle = () => {
        this.#isClosed = true;
        this.#changes.notify();
        void this.exited.then(resolve);
      };
      this.#child.once("close", settle);
      this.#child.once("error", () => {
        if (this.#child.pid === undefined) settle();
      });
    });
    if (this.#child.stdin) {
      this.#child.stdin.on("error", () => undefined); // A child that exits without reading its input is not an error.
      if (typeof options.input === "function") {
        // A writer that fails ends stdin, and a run to its end fails with its error.
        Promise.resolve(options.input(this.#child.stdin, this)).catch((error: unknown) => {
          this.#inputError = error instanceof Error ? error : new Error(String(error));
          this.#child.stdin?.end();
        });
      } else if (options.input !== undefined) this.#child.stdin.end(options.input);
    }
  }

  get pid(): number {
    return this.#child.pid ?? 0;
  }

  get stdout(): string {
    return this.#stdout;
  }

  get stderr(): string {
    return this.#stderr;
  }

  /** stdout and stderr together, in the order they arrived. */
  get output(): string {
    return this.#output;
  }

  /** How it ended; undefined while it runs. */
  get exit(): Exit | undefined {
    return this.#exit;
  }

  get hasExited(): boolean {
    return this.#exit !== undefined;
  }

  /** Why it could not start (no such program), if so. */
  get startError(): Error | undefined {
    return this.#startError;
  }

  /** Why the `input` function failed, if it did. */
  get inputError(): Error | undefined {
    return this.#inputError;
  }

  /**
   * Resolves with the first result of `check` that is not `false`, `null` or `undefined`, re-checked on every
   * chunk of output; fails, with stderr, once the child has ended without it, or, with all it printed, after
   * `checks` quiet ticks.
   */
  async waitFor<T>(check: () => T | Promise<T>, what: string, checks?: number): Promise<Exclude<T, NotYet>> {
    let hasEnded = false;
    try {
      return await eventually(
        async () => {
          const value = await check();
          if (value !== false && value !== null && value !== undefined) return value;
          hasEnded = this.#isClosed;
          if (hasEnded) throw this.#endedBefore(what);
          return value;
        },
        { what: `${what} (${this.name})`, checks, on: this.#changes },
      );
    } catch (error) {
      if (hasEnded || !(error instanceof Error)) throw error;
      // Still running: what it printed says where it stands.
      throw new Error(`${error.message}; its output so far:\n${this.#output}`, { cause: error });
    }
  }

  /** Waits for `pattern` in stdout (or `stream`) and resolves with its match: a ready line and what it names. */
  waitForMatch(
    pattern: RegExp,
    what: string,
    stream: "stdout" | "stderr" | "output" = "stdout",
  ): Promise<RegExpMatchArray> {
    return this.waitFor(() => this[stream].match(pattern), what);
  }

  /**
   * Waits for `readyLine` on stdout, the line a service prints once it serves, and resolves with its match. A
   * child that ends first or does not get there is killed (its group too): a failed start leaves nothing behind.
   */
  async ready(readyLine: RegExp, checks?: number): Promise<RegExpMatchArray> {
    try {
      return await this.waitFor(() => this.#stdout.match(readyLine), "it was ready", checks);
    } catch (error) {
      await this[Symbol.asyncDispose]();
      throw error;
    }
  }

  /** Writes a line to stdin (started with `hasOpenStdin`), as a person types. */
  type(line: string): void {
    if (!this.#child.stdin) throw new Error(`${this.name} was started without an open stdin`);
    this.#child.stdin.write(`${line}\n`);
  }

  /**
   * Sends `signal` (SIGTERM: a clean stop; SIGKILL: a crash) unless it has exited, and waits for the exit;
   * with `graceMs`, SIGKILL follows when it has not exited by then.
   */
  async stop(signal: NodeJS.Signals = "SIGTERM", graceMs?: number): Promise<Exit> {
    if (this.#exit === undefined) this.#signal(signal);
    const timer = graceMs === undefined ? undefined : setTimeout(() => this.#signal("SIGKILL"), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGKILL (a crash), then waits for the exit. */
  kill(): Promise<Exit> {
    return this.stop("SIGKILL");
  }

  /** Kills it (and its group, which may outlive its leader) and waits for the exit: a failed test leaves nothing. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#exit === undefined || this.#isGroupLeader) this.#signal("SIGKILL");
    await this.exited;
  }

  #signal(signal: NodeJS.Signals): void {
    const pid = this.#child.pid;
    if (pid === undefined) return;
    try {
      if (this.#isGroupLeader) process.kill(-pid, signal);
      else this.#child.kill(signal);
    } catch {
      // Already gone.
    }
  }

  #endedBefore(what: string): Error {
    if (this.#startError) return this.#startError;
    const how = this.#exit?.code ?? this.#exit?.signal;
    return new Error(`${this.name} exited (${how}) before ${what}:\n${this.#stderr}`);
  }
}

/** Starts a child process; `await using` it so that it is killed however the test ends. */
export function startChild(options: ChildOptions): StartedChild {
  return new StartedChild(options);
}

export interface RunOptions extends ChildOptions {
  /** Past this the child (its group, when it leads one) is killed and the run fails: a bound, never a speed check. */
  readonly timeoutMs?: number;
}

/** Runs a command to its end (stdin closed after `input`) and resolves with its exit and output. */
export async function runToEnd(options: RunOptions): Promise<ChildResult> {
  const child = startChild({ ...options, input: options.input ?? "" });
  let isTimedOut = false;
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          isTimedOut = true;
          void child[Symbol.asyncDispose]();
        }, options.timeoutMs);
  const exit = await child.closed;
  clearTimeout(timer);
  if (child.startError) throw child.startError;
  if (child.inputError) throw child.inputError;
  if (isTimedOut) {
    throw new Error(
      `${child.name} ${options.args.join(" ")} did not end within ${options.timeoutMs} ms\n--- stdout\n${child.stdout}\n--- stderr\n${child.stderr}`,
    );
  }
  return { ...exit, stdout: child.stdout, stderr: child.stderr };
}
