import { fileURLToPath } from "node:url";
import { type ServerProcess, startServerProcess } from "./server-process.ts";

const BIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));
const BARE_SSE = fileURLToPath(new URL("./bare-sse-server.ts", import.meta.url));

/** The built relay in its own process. */
export type RelayProcess = ServerProcess;

/** Starts the relay on 127.0.0.1, a free port, open signup, data in `dataDir`, plus `args` (e.g. `--database`). */
export function startRelayProcess(dataDir: string, args: readonly string[] = []): Promise<RelayProcess> {
  return startServerProcess(
    BIN,
    ["--host", "127.0.0.1", "--port", "0", "--data", dataDir, "--open-signup", ...args],
    /ringback relay listening on (http:\/\/\S+)/,
  );
}

/** The bare `node:http` SSE fan-out (bare-sse-server.ts) in its own process: the baseline of the relay's figures. */
export function startBareSseProcess(): Promise<ServerProcess> {
  return startServerProcess(BARE_SSE, [], /bare sse listening on (http:\/\/\S+)/);
}
