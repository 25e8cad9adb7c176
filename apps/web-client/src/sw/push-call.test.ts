import { aad, generateKey, sealJson } from "@ringback/e2e-crypto";
import type { PushMessage, RelayedEvent } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { payloadFor } from "../../test/fixtures.js";
import { createMemoryStore } from "../app/storage/memory-key-value.js";
import { ANSWERED_IDS_KEY, E2E_KEY_KEY, FORM_OF_ADDRESS_KEY, IDENTITY_KEY } from "../shared/storage-keys.js";
import { GENERIC_CALL_BODY, GENERIC_CALL_TITLE, pushedCall } from "./push-call.js";

const SERVER = "https://relay.example";
const key = generateKey();

function push(eventId: string): PushMessage {
  return {
    type: "call",
    eventId,
    seq: 1,
    source: "claude-code",
    occurredAt: "2026-03-02T10:00:00.000Z",
    receivedAt: "2026-03-02T10:00:01.000Z",
    taskId: null,
    fromDeviceId: "dev_pc",
    expiresAt: "2026-03-03T10:00:01.000Z",
    attempt: 1,
  };
}

async function pairedStore() {
  const store = createMemoryStore();
  await store.set(IDENTITY_KEY, {
    serverUrl: SERVER,
    accountId: "acc_1",
    deviceId: "dev_phone",
    deviceToken: "token-phone",
  });
  await store.set(E2E_KEY_KEY, key);
  return store;
}

/** The relay's `GET /v1/calls/<eventId>` as a fetch, recording what was asked. */
function relayServing(events: Record<string, RelayedEvent>) {
  const requests: { url: string; authorization: string | null }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    requests.push({ url, authorization: new Headers(init?.headers).get("Authorization") });
    const eventId = decodeURIComponent(url.split("/v1/calls/")[1] ?? "");
    const event = events[eventId];
    return event
      ? Response.json(event)
      : Response.json({ error: { code: "call_not_found", message: "gone" } }, { status: 404 });
  }) as typeof fetch;
  return { fetchImpl, requests };
}

async function relayedEvent(eventId: string, sealedWith = key, brief = {}): Promise<RelayedEvent> {
  const payload = payloadFor({ eventId, brief });
  return {
    seq: 1,
    eventId,
    source: "claude-code",
    occurredAt: "2026-03-02T10:00:00.000Z",
    receivedAt: "2026-03-02T10:00:01.000Z",
    taskId: null,
    fromDeviceId: "dev_pc",
    sealed: await sealJson(sealedWith, aad.report(eventId), payload),
    status: "pending",
  };
}

describe("a pushed call in the service worker", () => {
  it("fetches the sealed event with the device's token, opens it, and shows the brief's title and first sentence", async () => {
    const store = await pairedStore();
    await store.set(FORM_OF_ADDRESS_KEY, "Captain");
    const relay = relayServing({
      ev1: await relayedEvent("ev1", key, {
        title: "Billing refactor",
        spoken: "{{address}}, billing is done. Two tests were added.",
      }),
    });
    const call = await pushedCall(push("ev1"), store, relay.fetchImpl);
    expect(call).toEqual({
      kind: "show",
      eventId: "ev1",
      title: "Billing refactor",
      body: "Captain, billing is done.",
      tag: "ringback-call-ev1",
    });
    expect(relay.requests).toEqual([{ url: `${SERVER}/v1/calls/ev1`, authorization: "Bearer token-phone" }]);
  });

  it("uses the report's first sentence when the brief failed", async () => {
    const store = await pairedStore();
    const relay = relayServing({ ev1: await relayedEvent("ev1", key, { spoken: "" }) });
    const call = await pushedCall(push("ev1"), store, relay.fetchImpl);
    expect(call).toMatchObject({ kind: "show", body: "Finished ev1." });
  });

  it("rings without the brief when the call was sealed with another key", async () => {
    const store = await pairedStore();
    const relay = relayServing({ ev1: await relayedEvent("ev1", generateKey()) });
    expect(await pushedCall(push("ev1"), store, relay.fetchImpl)).toEqual({
      kind: "show",
      eventId: "ev1",
      title: GENERIC_CALL_TITLE,
      body: GENERIC_CALL_BODY,
      tag: "ringback-call-ev1",
    });
  });

  it("rings without the brief when the relay cannot be reached", async () => {
    const store = await pairedStore();
    const offline = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof fetch;
    expect(await pushedCall(push("ev1"), store, offline)).toMatchObject({
      kind: "show",
      title: GENERIC_CALL_TITLE,
    });
  });

  it("stays quiet for a call that already ended, one answered here, or an unpaired device", async () => {
    const store = await pairedStore();
    const relay = relayServing({});
    expect(await pushedCall(push("gone"), store, relay.fetchImpl)).toMatchObject({
      kind: "quiet",
      reason: "ended",
    });
    await store.set(ANSWERED_IDS_KEY, ["ev1"]);
    expect(await pushedCall(push("ev1"), store, relay.fetchImpl)).toMatchObject({
      kind: "quiet",
      reason: "answered-here",
    });
    expect(await pushedCall(push("ev1"), createMemoryStore(), relay.fetchImpl)).toMatchObject({
      kind: "quiet",
      reason: "unpaired",
    });
  });

  it("shows a plain call for a push it cannot read", async () => {
    const store = await pairedStore();
    const relay = relayServing({});
    expect(await pushedCall({ type: "call" }, store, relay.fetchImpl)).toMatchObject({
      kind: "show",
      eventId: null,
      title: GENERIC_CALL_TITLE,
    });
    expect(relay.requests).toEqual([]);
  });
});
