import { aad, deriveKeyFromPassphrase, sealJson } from "@ringback/e2e-crypto";
import type { RelayedEvent } from "@ringback/protocol";
import { payloadFor } from "./fixtures.js";
import { TEST_ACCOUNT_ID } from "./test-relay-server.js";

/**
 * A tracker task's call as the relay relays it: report and brief sealed with the key of `phrase`; with
 * `isBriefFailed`, the call of a computer without a language model (no brief, the report alone).
 */
export async function sealedTrackerCall(
  phrase: string,
  seq: number,
  eventId: string,
  text: string,
  options: { readonly isBriefFailed?: boolean } = {},
): Promise<RelayedEvent> {
  const key = await deriveKeyFromPassphrase(phrase, TEST_ACCOUNT_ID);
  const occurredAt = new Date().toISOString();
  const payload = payloadFor({
    eventId,
    occurredAt,
    text,
    projectName: "Billing",
    priority: "high",
    isBriefFailed: options.isBriefFailed ?? false,
  });
  return {
    seq,
    eventId,
    source: "tracker",
    occurredAt,
    receivedAt: occurredAt,
    taskId: `task-${eventId}`,
    fromDeviceId: "dev_computer",
    sealed: await sealJson(key, aad.report(eventId), payload),
    status: "pending",
  };
}
