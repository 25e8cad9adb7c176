import { fileURLToPath } from "node:url";
import { type ServerProcess, startServerProcess } from "./server-process.ts";

const BIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));
const BARE_SSE = fileURLToPath(new URL("./bare-sse-server.ts", import.meta.url));

/** The built relay in its own process. */
export type RelayProcess = ServerProcess;

/**
 * The bench's load is one account's thousands of devices and streams, all from 127.0.0.1: far beyond the limits a
 * relay keeps for accounts and addresses by default, which an operator moves with these same flags.
 */
const BENCH_LIMITS = [
  "--devices-per-account",
  "20000",
  "--pairings-per-account",
  "20000",
  "--streams-per-account",
  "20000",
  "--streams-per-address",
  "40000",
  "--signups-per-address",
  "1000",
];

/**
 * Starts the relay on 127.0.0.1, a free port, open signup, the bench's limits, data in `dataDir`, plus `args` (e.g.
 * `--database`).
 */
export function startRelayProcess(dataDir: string, args: readonly string[] = []): Promise<RelayProcess> {
  return startServerProcess(
    BIN,
    ["--host", "127.0.0.1", "--port", "0", "--data", dataDir, "--open-signup", ...BENCH_LIMITS, ...args],
    /ringback relay listening on (http:\/\/\S+)/,
  );
}

/** The bare `node:http` SSE fan-out (bare-sse-server.ts) in its own process: the baseline of the relay's figures. */
export function startBareSseProcess(): Promise<ServerProcess> {
  return startServerProcess(BARE_SSE, [], /bare sse listening on (http:\/\/\S+)/);
}
