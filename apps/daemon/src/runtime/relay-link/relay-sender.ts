import { createRelaySender, type OutboxEntry, type SendFunction } from "@ringback/outbox";
import type { ConfigFile } from "../config-file.js";
import { relayAddress } from "../relay-address.js";

/**
 * The outbox's sender with the relay identity read at each send, so a `ringback login` through the running
 * daemon applies to the reports still waiting without a restart.
 */
export function createIdentitySender(
  config: ConfigFile,
  env: NodeJS.ProcessEnv,
  seal: (entry: Readonly<OutboxEntry>) => Promise<string>,
): SendFunction {
  return async (entry, signal) => {
    const relay = relayAddress(config, env);
    if (!relay) return { kind: "retry", reason: "no relay configured (ringback login)" };
    return createRelaySender({ ...relay, seal })(entry, signal);
  };
}
