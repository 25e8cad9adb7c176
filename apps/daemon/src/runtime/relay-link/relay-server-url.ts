import { DEFAULT_RELAY_PORT } from "@ringback/protocol";
import type { ConfigFile } from "../files/config-file.js";

/** The relay `ringback login` uses when nothing names one: a relay on this computer with its default port. */
const DEFAULT_SERVER_URL = `http://127.0.0.1:${DEFAULT_RELAY_PORT}`;

/** The relay to log in to when the request names none: `RINGBACK_SERVER_URL`, daemon.json's `serverUrl`, the default. */
export function defaultServerUrl(config: ConfigFile, env: NodeJS.ProcessEnv): string {
  return env.RINGBACK_SERVER_URL?.trim() || config.config.serverUrl || DEFAULT_SERVER_URL;
}
