import { formatPairingLink } from "@ringback/client";
import { type PairingResult, RingbackError } from "@ringback/protocol";
import type { ConfigFile } from "../files/config-file.js";
import { currentE2eKey } from "../keys/e2e-key.js";
import { relayAddress } from "../relay-address.js";
import { refusedAsInvalidRequest } from "./link-refusal.js";
import { RelayApi } from "./relay-api.js";

/**
 * `ringback pair` / `POST /local/pairing`: a fresh pairing code from the relay (with this computer's device
 * token) and the link that carries it with the key. A relay with a public address (`--public-url`, say behind
 * Caddy while this computer reaches it inside the network) names it: the new device joins there. The link opens the
 * web app at `RINGBACK_APP_URL`, else at that address (the relay serves the app).
 */
export async function createPairing(
  config: ConfigFile,
  env: NodeJS.ProcessEnv,
  fetchImpl?: typeof globalThis.fetch,
): Promise<PairingResult> {
  const relay = relayAddress(config, env);
  if (!relay?.deviceToken) {
    throw new RingbackError(
      "invalid_request",
      "This computer is not logged in to a relay yet: run `ringback login` first.",
    );
  }
  const { code, expiresAt, publicUrl } = await new RelayApi(relay.serverUrl, fetchImpl).createPairingCode(
    relay.deviceToken,
  );
  const serverUrl = publicUrl ?? relay.serverUrl;
  const key = currentE2eKey(config);
  const appUrl = env.RINGBACK_APP_URL?.trim() || serverUrl;
  const link = refusedAsInvalidRequest(() => formatPairingLink({ serverUrl, code, key }, appUrl));
  return { serverUrl, code, key, expiresAt, link };
}
