import { join } from "node:path";
import { DaemonConfig, DEFAULT_LOCAL_PORT, ErrorBody, isErrorCode, RingbackError } from "@ringback/protocol";
import type { z } from "zod";
import { CONFIG_FILE } from "../files/config-file.js";
import { readTextIfExists } from "../files/private-file.js";
import { LOCAL_KEY_FILE } from "../keys/local-key.js";
import { type LocalAnswer, signedLocalRequest } from "../keys/signed-local-request.js";
import { StartError } from "../start-error.js";

/** A login derives a key (PBKDF2) and calls the relay: seconds, not minutes. */
const LOCAL_CALL_TIMEOUT_MS = 60_000;

/**
 * Asks the daemon running on this data dir (port from `RINGBACK_PORT`, else daemon.json's `localPort`) to do
 * something, so that it writes its own daemon.json (a second writer would lose the other's changes). Signed with the
 * local key, never carrying it. Undefined when no daemon of this data dir proves its answer there: the caller then
 * does it itself.
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
  let response: LocalAnswer;
  try {
    response = await signedLocalRequest({
      port,
      localKey,
      method,
      path,
      body,
      timeoutMs: LOCAL_CALL_TIMEOUT_MS,
    });
  } catch (error) {
    if (isConnectionRefused(error)) return undefined;
    throw error;
  }
  // Another data dir's daemon on this port, or another program on it, does not prove its answer with our key (an
  // older daemon refuses the signed form): it is not ours to ask, and it never got the key.
  if (!response.isProven) return undefined;
  const json = response.body;
  if (response.status >= 200 && response.status < 300) return schema.parse(json);
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
