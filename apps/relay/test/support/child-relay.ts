import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { StartedChild } from "@ringback/test-kit";

const BIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));
const LISTENING = /ringback relay listening on (https?:\/\/\S+)/;
const CLAIM_CODE = /claim code (\d{3}-\d{3}-\d{3})/;

/** The built `ringback-relay` bin as a child process (run `pnpm build` first; turbo does before `test`). */
export class ChildRelay extends StartedChild {
  static async start(options: {
    dataDir: string;
    port?: number;
    args?: readonly string[];
  }): Promise<ChildRelay> {
    if (!existsSync(BIN))
      throw new Error(`${BIN} is missing: run "pnpm --filter @ringback/relay build" first.`);
    const where = ["--host", "127.0.0.1", "--port", String(options.port ?? 0), "--data", options.dataDir];
    const relay = new ChildRelay({ args: [BIN, ...where, ...(options.args ?? [])], name: "the relay" });
    await relay.ready(LISTENING);
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
}
