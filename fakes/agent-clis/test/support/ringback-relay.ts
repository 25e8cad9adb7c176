import { startChild } from "@ringback/test-kit";
import { relayMainPath } from "./installed-bins.js";

const LISTENING_LINE = /ringback relay listening on (http:\/\/\S+)/;
/** Quiet checks (20 ms apart) the relay may take to listen on a busy machine. */
const START_CHECKS = 3_000;

export interface RingbackRelay extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** What the relay logged on stderr. */
  log(): string;
  close(): Promise<void>;
}

/**
 * The real relay (`ringback-relay`, built) on 127.0.0.1, port 0, its SQLite data in `dataDir`, with
 * `--open-signup`: the computer creates its account with `ringback login --server <url>`, as a person does.
 */
export async function startRingbackRelay(dataDir: string): Promise<RingbackRelay> {
  const child = startChild({
    args: [relayMainPath(), "--host", "127.0.0.1", "--port", "0", "--data", dataDir, "--open-signup"],
    env: { PATH: process.env.PATH, HOME: dataDir },
    name: "the relay",
  });
  const [, url = ""] = await child.ready(LISTENING_LINE, START_CHECKS);
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= child.stop("SIGTERM").then(() => undefined);
    return closing;
  };
  return { url, log: () => child.stderr, close, [Symbol.asyncDispose]: close };
}
