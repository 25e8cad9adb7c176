import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Waiters } from "./wait-until.js";

const BIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));
const LISTENING = /ringback relay listening on (https?:\/\/\S+)/;
const CLAIM_CODE = /claim code (\d{3}-\d{3}-\d{3})/;

/** The built `ringback-relay` bin as a child process (run `pnpm build` first; turbo does before `test`). */
export class ChildRelay implements AsyncDisposable {
  stdout = "";
  stderr = "";
  readonly #child: ChildProcess;
  readonly #waiters = new Waiters();
  #exit: { code: number | null; signal: string | null } | null = null;

  private constructor(args: readonly string[]) {
    if (!existsSync(BIN))
      throw new Error(`${BIN} is missing: run "pnpm --filter @ringback/relay build" first.`);
    this.#child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    this.#child.stdout?.on("data", (chunk: Buffer) => {
      this.stdout += chunk.toString("utf8");
      this.#waiters.notify();
    });
    this.#child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString("utf8");
      this.#waiters.notify();
    });
    this.#child.on("exit", (code, signal) => {
      this.#exit = { code, signal };
      this.#waiters.notify();
    });
  }

  static async start(options: {
    dataDir: string;
    port?: number;
    args?: readonly string[];
  }): Promise<ChildRelay> {
    const relay = new ChildRelay([
      "--host",
      "127.0.0.1",
      "--port",
      String(options.port ?? 0),
      "--data",
      options.dataDir,
      ...(options.args ?? []),
    ]);
    await relay.#waiters.until(
      () => (LISTENING.test(relay.stdout) ? true : relay.#exit ? true : undefined),
      "the relay to listen",
      15_000,
    );
    if (relay.#exit) throw new Error(`The relay exited at start: ${relay.stderr}`);
    return relay;
  }

  get url(): string {
    const url = this.stdout.match(LISTENING)?.[1];
    if (!url) throw new Error("The relay has not printed its address.");
    return url;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  get claimCode(): string | null {
    return this.stderr.match(CLAIM_CODE)?.[1] ?? null;
  }

  /** Stops the process (SIGKILL simulates a crash) and waits for it to exit. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: string | null }> {
    if (!this.#exit) this.#child.kill(signal);
    return this.#waiters.until(() => this.#exit ?? undefined, "the relay to exit", 10_000);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop("SIGKILL");
  }
}
