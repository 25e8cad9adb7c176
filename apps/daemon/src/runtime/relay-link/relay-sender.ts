import { taskIdDigest } from "@ringback/e2e-crypto";
import { createRelaySender, type OutboxEntry, type SendFunction } from "@ringback/outbox";
import type { CallRing } from "@ringback/protocol";
import type { ConfigFile } from "../files/config-file.js";
import { currentE2eKey } from "../keys/e2e-key.js";
import { relayAddress } from "../relay-address.js";

/**
 * The outbox's sender with the relay identity read at each send, so a `ringback login` through the running
 * daemon applies to the reports still waiting without a restart. The relay sees a tracker task id only as its
 * digest under the account's key. `ringOf` says which calls it keeps quiet (the call rules).
 */
export function createIdentitySender(
  config: ConfigFile,
  env: NodeJS.ProcessEnv,
  seal: (entry: Readonly<OutboxEntry>) => Promise<string>,
  ringOf?: (entry: Readonly<OutboxEntry>) => CallRing,
): SendFunction {
  return async (entry, signal) => {
    const relay = relayAddress(config, env);
    if (!relay) return { kind: "retry", reason: "no relay configured (ringback login)" };
    const taskIdForRelay = (taskId: string) => taskIdDigest(currentE2eKey(config), taskId);
    return createRelaySender({ ...relay, seal, taskIdForRelay, ringOf })(entry, signal);
  };
}
