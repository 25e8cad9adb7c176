import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { createApp } from "../../src/app.js";
import { prepareDaemon } from "../../src/daemon.js";
import { CONFIG_FILE } from "../../src/runtime/files/config-file.js";

export const TEST_PORT = 8790;
const TEST_ORIGIN = `http://127.0.0.1:${TEST_PORT}`;

export interface RequestOptions {
  method?: string;
  /** Sent as JSON unless it is a string or a stream. */
  body?: unknown;
  /** Merged over the defaults (loopback Host, the local key, application/json); undefined removes one. */
  headers?: Record<string, string | undefined>;
}

/**
 * The daemon's app without a socket, on a temp data dir: requests go through `app.request()`.
 * `config` is written as daemon.json before start; `env` stands in for process.env.
 */
export async function startInProcessDaemon(options: { config?: object; env?: NodeJS.ProcessEnv } = {}) {
  const directory = await makeTemporaryDirectory();
  if (options.config) {
    await writeFile(join(directory.path, CONFIG_FILE), JSON.stringify(options.config), { mode: 0o600 });
  }
  const logLines: string[] = [];
  const prepared = await prepareDaemon({
    dataDir: directory.path,
    env: { LANG: "es_MX.UTF-8", RINGBACK_GATHER_SECONDS: "0", ...options.env },
    log: (line) => logLines.push(line),
    port: TEST_PORT,
  });
  const app = createApp(prepared.context);
  const localKey = prepared.context.localKey;

  function request(path: string, init: RequestOptions = {}): Promise<Response> {
    const defaults: Record<string, string | undefined> = {
      host: `127.0.0.1:${TEST_PORT}`,
      authorization: `Bearer ${localKey}`,
      "content-type": init.body === undefined ? undefined : "application/json",
    };
    const headers = Object.entries({ ...defaults, ...init.headers }).filter(
      (header): header is [string, string] => header[1] !== undefined,
    );
    const body =
      init.body === undefined || typeof init.body === "string" || init.body instanceof ReadableStream
        ? (init.body as RequestInit["body"])
        : JSON.stringify(init.body);
    const isStream = body instanceof ReadableStream;
    const requestInit = {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      ...(isStream ? { duplex: "half" } : {}),
    } as RequestInit;
    return Promise.resolve(app.request(`${TEST_ORIGIN}${path}`, requestInit));
  }

  return {
    app,
    request,
    localKey,
    dataDir: directory.path,
    config: prepared.context.config,
    outbox: prepared.outbox,
    sessions: prepared.context.sessions,
    logLines,
    async close() {
      await prepared.stop();
      await directory.remove();
    },
  };
}

export type InProcessDaemon = Awaited<ReturnType<typeof startInProcessDaemon>>;
