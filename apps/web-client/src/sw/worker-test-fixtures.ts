import type { KeyValueStore } from "@ringback/client";
import { createMemoryStore, E2E_KEY_KEY, IDENTITY_KEY } from "@ringback/client";
import { aad, type E2eKey, generateKey, sealJson } from "@ringback/e2e-crypto";
import type { PushCallMessage, RelayedEvent, SealedReportPayload } from "@ringback/protocol";

/** The relay every worker test's device is paired with. */
export const TEST_RELAY_URL = "https://relay.example";

/** For the worker's tests: a device's storage as pairing leaves it (identity and end-to-end key). */
export async function pairedTestStore(key: string = generateKey()): Promise<KeyValueStore> {
  const store = createMemoryStore();
  await store.set(IDENTITY_KEY, {
    serverUrl: TEST_RELAY_URL,
    accountId: "acc_1",
    deviceId: "dev_phone",
    deviceToken: "token-phone",
  });
  await store.set(E2E_KEY_KEY, key);
  return store;
}

/** The relay's ringing push of `eventId` (routing plaintext only), its `attempt`-th. */
export function testPush(eventId: string, attempt = 1): PushCallMessage {
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
    attempt,
  };
}

/** A call of `testPush`'s computer as the relay returns it (`GET /v1/calls/<eventId>`): `payload` sealed with `key`. */
export async function testRelayedEvent(key: E2eKey, payload: SealedReportPayload): Promise<RelayedEvent> {
  const { eventId, source } = payload.report;
  return {
    seq: 1,
    eventId,
    source,
    occurredAt: "2026-03-02T10:00:00.000Z",
    receivedAt: "2026-03-02T10:00:01.000Z",
    taskId: null,
    fromDeviceId: "dev_pc",
    sealed: await sealJson(key, aad.report(eventId), payload),
    status: "pending",
  };
}

/** A relay that cannot be reached: every request fails as `fetch` fails offline. */
export const offlineFetch = (async () => {
  throw new TypeError("fetch failed");
}) as typeof fetch;

/** A relay that never answers: each request waits until it is aborted; `signals` holds each request's signal. */
export function silentFetch(): { fetchImpl: typeof fetch; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  const fetchImpl = ((_input: RequestInfo | URL, init?: RequestInit) => {
    const signal = init?.signal as AbortSignal;
    signals.push(signal);
    return new Promise<Response>((_resolve, reject) => {
      signal.addEventListener("abort", () => reject(signal.reason));
    });
  }) as typeof fetch;
  return { fetchImpl, signals };
}
