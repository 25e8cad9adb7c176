import { join } from "node:path";
import { DaemonConfig, DEFAULT_LOCAL_PORT, ErrorBody, isErrorCode, RingbackError } from "@ringback/protocol";
import type { z } from "zod";
import { CONFIG_FILE } from "../config-file.js";
import { LOCAL_KEY_FILE } from "../local-key.js";
import { readTextIfExists } from "../private-file.js";
import { StartError } from "../start-error.js";

/** A login derives a key (PBKDF2) and calls the relay: seconds, not minutes. */
const LOCAL_CALL_TIMEOUT_MS = 60_000;

/**
 * Asks the daemon running on this data dir (port from `RINGBACK_PORT`, else daemon.json's `localPort`) to do
 * something, so that it writes its own daemon.json (a second writer would lose the other's changes). Undefined
 * when no daemon of this data dir answers there: the caller then does it itself.
 */
export async function callRunningDaemon<Schema extends z.ZodType>(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  path: string,
  body: unknown,
  schema: Schema,
  method: "POST" | "PUT" = "POST",
): Promise<z.output<Schema> | undefined> {
  const localKey = (await readTextIfExists(join(dataDir, LOCAL_KEY_FILE)))?.trim();
  if (!localKey) return undefined;
  const port = await localPort(dataDir, env);
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(LOCAL_CALL_TIMEOUT_MS),
    });
  } catch (error) {
    if (isConnectionRefused(error)) return undefined;
    throw error;
  }
  const json = await response.json().catch(() => undefined);
  // Another data dir's daemon on this port does not know our key: it is not ours to ask.
  if (response.status === 401) return undefined;
  if (response.ok) return schema.parse(json);
  const error = ErrorBody.safeParse(json);
  if (response.status === 404 && error.success && error.data.error.code === "not_found") {
    throw new StartError(
      `the daemon running on port ${port} is an older version without ${path}: stop it, then try again`,
    );
  }
  if (error.success && isErrorCode(error.data.error.code)) {
    throw new RingbackError(error.data.error.code, error.data.error.message);
  }
  throw new StartError(`the daemon on port ${port} answered ${path} with ${response.status}`);
}

async function localPort(dataDir: string, env: NodeJS.ProcessEnv): Promise<number> {
  const override = Number(env.RINGBACK_PORT);
  if (env.RINGBACK_PORT && Number.isInteger(override) && override > 0) return override;
  const text = await readTextIfExists(join(dataDir, CONFIG_FILE));
  if (text === null) return DEFAULT_LOCAL_PORT;
  try {
    return DaemonConfig.parse(JSON.parse(text)).localPort;
  } catch {
    return DEFAULT_LOCAL_PORT;
  }
}

function isConnectionRefused(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return code === "ECONNREFUSED" || code === "ECONNRESET";
}
