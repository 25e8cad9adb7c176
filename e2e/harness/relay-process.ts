import { RELAY_BIN, requireBuilt, WEB_ROOT } from "./paths.ts";
import { type ServiceProcess, startServiceProcess } from "./service-process.ts";

const LISTENING_LINE = /ringback relay listening on (http:\/\/\S+)/;

export interface RelayOptions {
  /** The relay's data directory (its SQLite file). */
  readonly dataDir: string;
  /** Default 0: any free port. Give the old port to restart a relay where its clients expect it. */
  readonly port?: number;
  /** The web app the relay serves at `/`; default the built web client, null for none. */
  readonly webRoot?: string | null;
  /** Default true: anyone may create an account, so no claim code is needed. */
  readonly isSignupOpen?: boolean;
  /** More `ringback-relay` arguments, e.g. `["--sse-retry-ms", "2500"]`. */
  readonly args?: readonly string[];
  readonly env?: Record<string, string>;
}

export interface RelayProcess extends ServiceProcess {
  /** `http://127.0.0.1:<port>`: the relay's API and, with a web root, the web app. */
  readonly url: string;
  readonly port: number;
}

/** Starts the real relay (`apps/relay/dist/main.js`) on 127.0.0.1 and resolves once it listens. */
export async function startRelay(options: RelayOptions): Promise<RelayProcess> {
  const bin = requireBuilt(RELAY_BIN, "@ringback/relay");
  const webRoot =
    options.webRoot === undefined ? requireBuilt(WEB_ROOT, "@ringback/web-client") : options.webRoot;
  const args = [
    bin,
    "--host",
    "127.0.0.1",
    "--port",
    String(options.port ?? 0),
    "--data",
    options.dataDir,
    ...(options.isSignupOpen === false ? [] : ["--open-signup"]),
    ...(webRoot === null ? ["--no-web"] : ["--web-root", webRoot]),
    ...(options.args ?? []),
  ];
  const service = await startServiceProcess({
    name: "relay",
    args,
    env: { PATH: process.env.PATH, HOME: options.dataDir, ...options.env },
    readyLine: LISTENING_LINE,
  });
  const url = service.ready[1] ?? "";
  return { ...service, url, port: Number(new URL(url).port) };
}
