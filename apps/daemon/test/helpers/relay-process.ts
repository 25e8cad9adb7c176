import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { eventually } from "./eventually.js";

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
  const child: ChildProcess = spawn(process.execPath, [RELAY_BIN, ...args, ...(options.args ?? [])], {
    env: { PATH: process.env.PATH, HOME: options.dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let hasExited = false;
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      hasExited = true;
      resolve();
    }),
  );
  await eventually(() => LISTENING_LINE.test(stdout) || hasExited, 15_000);
  const url = stdout.match(LISTENING_LINE)?.[1];
  if (!url) throw new Error(`the relay did not start:\n${stderr}`);
  return {
    url,
    port: Number(new URL(url).port),
    claimCode: stderr.match(CLAIM_CODE_LINE)?.[1] ?? null,
    stderr: () => stderr,
    stop: async (signal = "SIGKILL") => {
      if (!hasExited) child.kill(signal);
      await exited;
    },
  };
}
