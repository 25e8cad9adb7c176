import type { Agent } from "node:http";
import { SseSubscriber } from "./sse-subscriber.ts";

/** A typical sealed report + brief (a few KB of text), as base64 ciphertext. */
export const SEALED_BYTES = 4096;
/** The fan-out figure: 1 KB events. */
export const SMALL_SEALED_BYTES = 1024;
const sealedOf = (bytes: number) => `e2e1.0123456789abcdef.${"A".repeat(16)}.${"B".repeat(bytes)}`;
/** Streams are opened this many at a time: a thousand at once would only measure the accept queue. */
const SUBSCRIBE_BATCH = 100;
let eventCounter = 0;

export interface Credentials {
  readonly deviceToken: string;
}

/** One JSON request to the relay at `baseUrl` (directly or through nginx); throws on a non-2xx answer. */
export async function request(
  baseUrl: string,
  method: "GET" | "POST" | "PUT",
  path: string,
  token: string | null,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** One JSON POST to the relay at `baseUrl`. */
export function api(baseUrl: string, path: string, token: string | null, body: unknown): Promise<unknown> {
  return request(baseUrl, "POST", path, token, body);
}

/** A computer (posts events) and a phone (subscribes) on a new account of an open-signup relay. */
export async function createAccount(baseUrl: string): Promise<{ computer: Credentials; phone: Credentials }> {
  const computer = (await api(baseUrl, "/v1/accounts", null, {
    deviceName: "bench pc",
    deviceKind: "computer",
  })) as Credentials;
  const { code } = (await api(baseUrl, "/v1/pairing-codes", computer.deviceToken, {})) as { code: string };
  const phone = (await api(baseUrl, "/v1/pairing-codes/redeem", null, {
    code,
    deviceName: "bench phone",
    deviceKind: "phone",
  })) as Credentials;
  return { computer, phone };
}

/** Posts one event with a sealed payload of `sealedBytes`, as the daemon does. */
export function postEvent(
  baseUrl: string,
  token: string,
  sealedBytes: number = SEALED_BYTES,
): { eventId: string; done: Promise<unknown> } {
  const sealed = sealedOf(sealedBytes);
  const eventId = `bench-${++eventCounter}`;
  const occurredAt = new Date().toISOString();
  return {
    eventId,
    done: api(baseUrl, "/v1/daemon/events", token, { eventId, source: "codex", occurredAt, sealed }),
  };
}

/** Devices that make pairing codes at once while pairing many (each device has one live code at a time). */
const PAIRING_CHAINS = 8;

/**
 * `count` more phones on the account of `creator`, each paired by a code of its own, as a person adds devices:
 * one stream per device, so the relay's limit of open streams per device never closes a measured stream.
 */
export async function pairDevices(
  baseUrl: string,
  creator: Credentials,
  count: number,
): Promise<Credentials[]> {
  const pairOne = async (by: Credentials) => {
    const { code } = (await api(baseUrl, "/v1/pairing-codes", by.deviceToken, {})) as { code: string };
    return (await api(baseUrl, "/v1/pairing-codes/redeem", null, {
      code,
      deviceName: "bench phone",
      deviceKind: "phone",
    })) as Credentials;
  };
  const devices: Credentials[] = [];
  let started = 0;
  const pairNext = async (by: Credentials) => {
    started++;
    const device = await pairOne(by);
    devices.push(device);
    return device;
  };
  // The first devices paired make codes too, so pairing runs PAIRING_CHAINS at a time.
  const creators = [creator];
  while (creators.length < PAIRING_CHAINS && started < count) creators.push(await pairNext(creator));
  await Promise.all(
    creators.map(async (by) => {
      while (started < count) await pairNext(by);
    }),
  );
  return devices;
}

export const tokensOf = (devices: readonly Credentials[]): string[] =>
  devices.map((device) => device.deviceToken);

/** Opens one SSE stream per device token. */
export async function subscribe(
  baseUrl: string,
  tokens: readonly string[],
  agent: Agent,
): Promise<SseSubscriber[]> {
  const subscribers: SseSubscriber[] = [];
  for (let start = 0; start < tokens.length; start += SUBSCRIBE_BATCH) {
    const batch = tokens.slice(start, start + SUBSCRIBE_BATCH).map((token) => {
      const stream = new SseSubscriber();
      subscribers.push(stream);
      return stream.open(baseUrl, token, agent);
    });
    await Promise.all(batch);
  }
  return subscribers;
}
