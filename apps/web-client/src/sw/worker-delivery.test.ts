import { createMemoryStore } from "@ringback/client";
import type { CallDelivery } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { reportWorkerDelivery } from "./worker-delivery.js";
import { offlineFetch, pairedTestStore, silentFetch } from "./worker-test-fixtures.js";

interface Posted {
  readonly url: string;
  readonly authorization: string | null;
  readonly body: unknown;
}

/** The relay's `POST /v1/calls/<eventId>/deliveries` as a fetch, recording what was posted. */
function relayRecording() {
  const posted: Posted[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    posted.push({
      url: String(input),
      authorization: new Headers(init?.headers).get("Authorization"),
      body: JSON.parse(String(init?.body)),
    });
    const delivery: CallDelivery = {
      seq: 3,
      eventId: "ev1",
      deviceId: "dev_phone",
      deviceName: "Phone",
      outcome: "shown",
      at: "2026-03-02T10:00:02.000Z",
    };
    return Response.json(delivery);
  }) as typeof fetch;
  return { fetchImpl, posted };
}

describe("the service worker's delivery reports", () => {
  it("tell the relay the outcome with the device's token", async () => {
    const relay = relayRecording();
    expect(await reportWorkerDelivery("ev1", "shown", await pairedTestStore(), relay.fetchImpl)).toBe(true);
    expect(relay.posted).toEqual([
      {
        url: "https://relay.example/v1/calls/ev1/deliveries",
        authorization: "Bearer token-phone",
        body: { outcome: "shown" },
      },
    ]);
  });

  it("swallow a relay that refuses, cannot be reached, or does not answer in time", async () => {
    const store = await pairedTestStore();
    const refusing = (async () =>
      Response.json({ error: { code: "call_not_found", message: "gone" } }, { status: 404 })) as typeof fetch;
    expect(await reportWorkerDelivery("ev1", "opened", store, refusing)).toBe(false);
    expect(await reportWorkerDelivery("ev1", "opened", store, offlineFetch)).toBe(false);
    const { fetchImpl: silent, signals } = silentFetch();
    expect(await reportWorkerDelivery("ev1", "shown", store, silent, 50)).toBe(false);
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });

  it("send nothing from a device that is not paired", async () => {
    const relay = relayRecording();
    expect(await reportWorkerDelivery("ev1", "shown", createMemoryStore(), relay.fetchImpl)).toBe(false);
    expect(relay.posted).toEqual([]);
  });
});
