import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, onRunEnd, runToEnd } from "@ringback/test-kit";
import { expectSuccess } from "./expect-success.js";
import type { CommandLine } from "./installed-bins.js";

/** The terminal a full-screen agent draws on (`new-session` flags): wide enough that its dialogs are not wrapped. */
const SIZE = ["-x", "200", "-y", "50"];
/** A tmux command (start, capture, keys) on a busy machine: a bound, never a speed check. */
const TMUX_TIMEOUT_MS = 60_000;
/**
 * How the screen is looked at while waiting: every `intervalMs`; a wait takes `perWait` looks at the most (3
 * minutes, for a cold start on a busy machine); a key press counts as dropped after `perPress` looks (5 s), and is
 * pressed `presses` times at the most. The bounds are counts of looks, never a speed check.
 */
const LOOKS = { intervalMs: 250, perWait: 720, perPress: 20, presses: 36 };

export interface TmuxScreenOptions {
  /** The program and its arguments, run directly (no shell). */
  commandLine: CommandLine;
  cwd: string;
  /** The whole environment of the program: the tmux server is started with it and passes it on. */
  env: NodeJS.ProcessEnv;
  /** A directory of the test's own for tmux's configuration file. */
  configDir: string;
}

/**
 * A full-screen program in a detached tmux session on a private server (`tmux -L <name>`), read with
 * `capture-pane` and typed into with `send-keys`, as a person at a terminal sees and types. Disposing kills that
 * server, and with it the program.
 */
export class TmuxScreen implements AsyncDisposable {
  readonly #socket: string;
  readonly #env: NodeJS.ProcessEnv;
  /** Kills the server should the test process end first: tmux runs on, detached, with the agent in it. */
  readonly #unregister: () => void;
  /** The server's socket file, which outlives a killed server (in tmux's own directory, `/tmp/tmux-<uid>/`). */
  #socketPath: string | undefined;
  #lastScreen = "";

  private constructor(socket: string, env: NodeJS.ProcessEnv) {
    this.#socket = socket;
    this.#env = env;
    this.#unregister = onRunEnd(() => {
      spawnSync("tmux", ["-L", socket, "kill-server"], { env });
      this.#removeSocket();
    });
  }

  static async start(options: TmuxScreenOptions): Promise<TmuxScreen> {
    const config = join(options.configDir, "tmux.conf");
    // A program that exits stays on the screen (with its last words), so a failure can be read.
    writeFileSync(config, "set -g remain-on-exit on\nset -g focus-events on\n");
    const env = { ...options.env, TERM: "xterm-256color" };
    const screen = new TmuxScreen(`ringback-${randomBytes(6).toString("hex")}`, env);
    const { command, args } = options.commandLine;
    try {
      await screen.#tmux(
        "-f",
        config,
        "new-session",
        "-d",
        ...SIZE,
        "-c",
        options.cwd,
        "--",
        command,
        ...args,
      );
      screen.#socketPath = (await screen.#tmux("display-message", "-p", "#{socket_path}")).trim();
    } catch (error) {
      await screen.close();
      throw error;
    }
    return screen;
  }

  /** The visible screen now, as text. */
  async capture(): Promise<string> {
    this.#lastScreen = await this.#tmux("capture-pane", "-p");
    return this.#lastScreen;
  }

  /** Waits until the screen shows `text` (a string or a pattern) and resolves with that screen. */
  async waitFor(text: string | RegExp, what: string, looks = LOOKS.perWait): Promise<string> {
    const shows = (screen: string) => (typeof text === "string" ? screen.includes(text) : text.test(screen));
    try {
      return await eventually(
        async () => {
          const screen = await this.capture();
          return shows(screen) ? screen : undefined;
        },
        { what: `the screen to show ${what}`, checks: looks, intervalMs: LOOKS.intervalMs },
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; the screen:\n${this.#lastScreen}`, { cause: error });
    }
  }

  /**
   * Pastes `text` as a terminal pastes it (bracketed, as the program asked for), then waits until the screen shows
   * it. Not typed key by key: Codex takes keys that come faster than a person types for a paste it did not mark as
   * one, and an Enter soon after such a burst for a line break, not for "send".
   */
  async paste(text: string): Promise<void> {
    await this.#tmux("set-buffer", "-b", "typed", "--", text);
    await this.#tmux("paste-buffer", "-p", "-d", "-b", "typed");
    await this.waitFor(text, `the pasted ${JSON.stringify(text)}`);
  }

  /** Fails as `waited` does, with the screen as it is then: what the program shows says where it stands. */
  async showingOnFailure<T>(waited: Promise<T>): Promise<T> {
    try {
      return await waited;
    } catch (error) {
      throw new Error(`${(error as Error).message}; the screen:\n${await this.capture()}`, { cause: error });
    }
  }

  /** Presses keys by tmux's names: `Enter`, `Escape`, `1`. */
  async press(...keys: string[]): Promise<void> {
    await this.#tmux("send-keys", ...keys);
  }

  /**
   * Presses `key` until the screen no longer shows `text`, as a person presses again when nothing happened: a
   * full-screen program may drop a key that comes while it redraws (Claude Code's dialog, as its hook ends).
   */
  async pressUntilGone(key: string, text: string, what: string): Promise<void> {
    for (let press = 1; press <= LOOKS.presses; press += 1) {
      await this.press(key);
      const isGone = await eventually(async () => !(await this.capture()).includes(text), {
        checks: LOOKS.perPress,
        intervalMs: LOOKS.intervalMs,
      }).then(
        () => true,
        () => false,
      );
      if (isGone) return;
    }
    throw new Error(
      `the screen still shows ${what} after ${LOOKS.presses} presses of ${key}:\n${this.#lastScreen}`,
    );
  }

  /** Kills the private tmux server, and with it the program. */
  async close(): Promise<void> {
    await runToEnd({ command: "tmux", args: ["-L", this.#socket, "kill-server"], env: this.#env });
    this.#removeSocket();
    this.#unregister();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #removeSocket(): void {
    if (this.#socketPath !== undefined) rmSync(this.#socketPath, { force: true });
  }

  async #tmux(...args: string[]): Promise<string> {
    const result = await runToEnd({
      command: "tmux",
      args: ["-L", this.#socket, ...args],
      env: this.#env,
      timeoutMs: TMUX_TIMEOUT_MS,
    });
    return expectSuccess(`tmux ${args[0]}`, result).stdout;
  }
}
