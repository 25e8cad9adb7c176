import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startChild } from "@ringback/test-kit";

/** The built `ringback-relay` bin (a devDependency, so turbo builds it before these tests). */
const RELAY_BIN = fileURLToPath(new URL("../../../relay/dist/main.js", import.meta.url));
const LISTENING_LINE = /ringback relay listening on (http:\/\/\S+)/;
const CLAIM_CODE_LINE = /claim code (\d{3}-\d{3}-\d{3})/;

export interface RelayProcess {
  url: string;
  port: number;
  /** The one-time claim code it printed, when it has no account yet and signup is not open. */
  claimCode: string | null;
  stderr(): string;
  /** SIGKILL (a crash) or SIGTERM, then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the relay on 127.0.0.1 (port 0 unless given) with its data in `dataDir`. */
export async function startRelayProcess(options: {
  dataDir: string;
  port?: number;
  args?: string[];
}): Promise<RelayProcess> {
  if (!existsSync(RELAY_BIN))
    throw new Error(`${RELAY_BIN} is missing: run pnpm --filter @ringback/relay build`);
  const args = ["--host", "127.0.0.1", "--port", String(options.port ?? 0), "--data", options.dataDir];
  const child = startChild({
    args: [RELAY_BIN, ...args, ...(options.args ?? [])],
    env: { PATH: process.env.PATH, HOME: options.dataDir },
    name: "the relay",
  });
  const [, url = ""] = await child.ready(LISTENING_LINE);
  return {
    url,
    port: Number(new URL(url).port),
    claimCode: child.stderr.match(CLAIM_CODE_LINE)?.[1] ?? null,
    stderr: () => child.stderr,
    stop: async (signal = "SIGKILL") => {
      await child.stop(signal);
    },
  };
}
