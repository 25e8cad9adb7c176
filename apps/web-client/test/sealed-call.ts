import { aad, deriveKeyFromPassphrase, sealJson } from "@ringback/e2e-crypto";
import type { Brief, RelayedEvent } from "@ringback/protocol";
import { payloadFor } from "./fixtures.js";
import { TEST_ACCOUNT_ID } from "./test-relay-server.js";

export interface TrackerCallOptions {
  /** The call of a computer without a language model: no brief, the report alone. */
  readonly isBriefFailed?: boolean;
  /** How long ago the task finished (0: now). */
  readonly ageMs?: number;
  /** When the task finished, exactly (in place of `ageMs`): calls whose order a test checks. */
  readonly occurredAt?: Date;
  /** The task's project ("Billing" unless given). */
  readonly projectName?: string;
  /** The brief's fields that differ from the fixture's. */
  readonly brief?: Partial<Brief>;
}

/** A high-priority tracker task's call as the relay relays it: report and brief sealed with the key of `phrase`. */
export async function sealedTrackerCall(
  phrase: string,
  seq: number,
  eventId: string,
  text: string,
  options: TrackerCallOptions = {},
): Promise<RelayedEvent> {
  const key = await deriveKeyFromPassphrase(phrase, TEST_ACCOUNT_ID);
  const occurredAt = (options.occurredAt ?? new Date(Date.now() - (options.ageMs ?? 0))).toISOString();
  const payload = payloadFor({
    eventId,
    occurredAt,
    text,
    projectName: options.projectName ?? "Billing",
    priority: "high",
    isBriefFailed: options.isBriefFailed ?? false,
    brief: options.brief,
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
