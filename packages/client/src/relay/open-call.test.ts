import { aad, generateKey, sealJson } from "@ringback/e2e-crypto";
import type { RelayedEvent } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { payloadFor } from "../../test/fixtures.js";
import { openRelayedEvent } from "./open-call.js";

const key = generateKey();

async function relayed(
  eventId: string,
  sealedFor: string = eventId,
  sealingKey = key,
): Promise<RelayedEvent> {
  return {
    seq: 1,
    eventId,
    source: "claude-code",
    occurredAt: "2026-03-02T10:00:00.000Z",
    receivedAt: "2026-03-02T10:00:00.000Z",
    taskId: null,
    fromDeviceId: "computer",
    sealed: await sealJson(sealingKey, aad.report(sealedFor), payloadFor({ eventId: sealedFor })),
    status: "pending",
  };
}

describe("opening a relayed call", () => {
  it("opens the report and brief sealed for the event", async () => {
    const payload = await openRelayedEvent(key, await relayed("e1"));
    expect(payload).toEqual(payloadFor({ eventId: "e1" }));
  });

  it("tells a call sealed with another key apart", async () => {
    await expect(openRelayedEvent(key, await relayed("e1", "e1", generateKey()))).rejects.toMatchObject({
      problem: "key_mismatch",
    });
  });

  it("refuses a sealed report replayed under another event id", async () => {
    const replayed = { ...(await relayed("e1")), eventId: "e2" };
    await expect(openRelayedEvent(key, replayed)).rejects.toMatchObject({ problem: "corrupted" });
  });

  it("refuses sealed data that is not a report", async () => {
    const event = { ...(await relayed("e1")), sealed: await sealJson(key, aad.report("e1"), { hello: 1 }) };
    await expect(openRelayedEvent(key, event)).rejects.toMatchObject({ problem: "invalid_payload" });
  });
});
