import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Exit, type StartedChild, startChild } from "@ringback/test-kit";

const BIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));
const LISTENING = /ringback relay listening on (https?:\/\/\S+)/;
const CLAIM_CODE = /claim code (\d{3}-\d{3}-\d{3})/;

/** The built `ringback-relay` bin as a child process (run `pnpm build` first; turbo does before `test`). */
export class ChildRelay implements AsyncDisposable {
  readonly #child: StartedChild;

  private constructor(child: StartedChild) {
    this.#child = child;
  }

  static async start(options: {
    dataDir: string;
    port?: number;
    args?: readonly string[];
  }): Promise<ChildRelay> {
    if (!existsSync(BIN))
      throw new Error(`${BIN} is missing: run "pnpm --filter @ringback/relay build" first.`);
    const child = startChild({
      args: [
        BIN,
        "--host",
        "127.0.0.1",
        "--port",
        String(options.port ?? 0),
        "--data",
        options.dataDir,
        ...(options.args ?? []),
      ],
      name: "the relay",
    });
    try {
      await child.waitForMatch(LISTENING, "listening");
    } catch (error) {
      await child[Symbol.asyncDispose]();
      throw error;
    }
    return new ChildRelay(child);
  }

  get stdout(): string {
    return this.#child.stdout;
  }

  get stderr(): string {
    return this.#child.stderr;
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
  stop(signal: NodeJS.Signals = "SIGTERM"): Promise<Exit> {
    return this.#child.stop(signal);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.#child[Symbol.asyncDispose]();
  }
}
