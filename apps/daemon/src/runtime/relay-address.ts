import type { ConfigFile } from "./files/config-file.js";
import { StartError } from "./start-error.js";

/**
 * Where reports go: `RINGBACK_SERVER_URL` when set, else `serverUrl` from daemon.json, with the device token
 * written by `ringback login` (`relay.deviceToken`); undefined when no relay is configured.
 */
export function relayAddress(
  config: ConfigFile,
  env: NodeJS.ProcessEnv,
): { serverUrl: string; deviceToken?: string } | undefined {
  const override = env.RINGBACK_SERVER_URL?.trim();
  if (override && !isHttpAddress(override))
    throw new StartError("RINGBACK_SERVER_URL is not an http(s) address");
  const serverUrl = override || config.config.serverUrl;
  if (!serverUrl) return undefined;
  const deviceToken = config.config.relay?.deviceToken;
  return deviceToken ? { serverUrl, deviceToken } : { serverUrl };
}

function isHttpAddress(text: string): boolean {
  return URL.canParse(text) && ["http:", "https:"].includes(new URL(text).protocol);
}
