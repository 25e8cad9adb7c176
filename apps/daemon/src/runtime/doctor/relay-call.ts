import { isSealedDeviceName, readListedName } from "@ringback/client";
import type { E2eKey } from "@ringback/e2e-crypto";
import { CallDelivery, RELAY_SSE_EVENTS, RelayedEvent } from "@ringback/protocol";
import { createParser, type EventSourceMessage } from "eventsource-parser";

const RELAY_TIMEOUT_MS = 5_000;

/** Where a sent report's call stands at the relay, and how far it got on each device. */
export interface CallAtRelay {
  readonly status: RelayedEvent["status"];
  /**
   * `<device name>: pushed|shown|opened`, in the order the relay recorded them; a name that does not open with this
   * computer's key (or without one) reads as the device's kind.
   */
  readonly deliveries: readonly string[];
}

/**
 * Asks the relay as this computer: `GET /v1/calls/<id>` for the status, then the account's stream replayed from
 * just before the call (`Last-Event-ID`) up to `synced`, for its delivery outcomes. Null when the relay no longer
 * has the call (expired and pruned); throws when the relay cannot be asked.
 */
export async function callAtRelay(
  serverUrl: string,
  deviceToken: string,
  eventId: string,
  key: E2eKey | null,
): Promise<CallAtRelay | null> {
  const headers = { authorization: `Bearer ${deviceToken}` };
  const response = await fetch(new URL(`/v1/calls/${encodeURIComponent(eventId)}`, serverUrl), {
    headers,
    signal: AbortSignal.timeout(RELAY_TIMEOUT_MS),
  });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`the relay answered GET /v1/calls/<id> with ${response.status}`);
  const call = RelayedEvent.parse(await response.json());
  const deliveries = await replayDeliveries(serverUrl, headers, eventId, call.seq - 1);
  return {
    status: call.status,
    deliveries: await Promise.all(deliveries.map((entry) => deliveryLine(entry, key))),
  };
}

/** One delivery as doctor prints it: the device's name read with the key, else its kind; never ciphertext. */
async function deliveryLine(delivery: CallDelivery, key: E2eKey | null): Promise<string> {
  const name = key
    ? await readListedName(key, delivery.deviceName, delivery.deviceKind)
    : isSealedDeviceName(delivery.deviceName)
      ? null
      : delivery.deviceName;
  return `${name ?? `a ${delivery.deviceKind ?? "device"}`}: ${delivery.outcome}`;
}

async function replayDeliveries(
  serverUrl: string,
  headers: Record<string, string>,
  eventId: string,
  fromSeq: number,
): Promise<CallDelivery[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), RELAY_TIMEOUT_MS);
  const deliveries: CallDelivery[] = [];
  try {
    const response = await fetch(new URL(`/v1/stream?lastEventId=${fromSeq}`, serverUrl), {
      headers: { ...headers, accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (!response.ok || !response.body) return deliveries;
    let events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    for await (const text of response.body.pipeThrough(new TextDecoderStream())) {
      parser.feed(text);
      for (const event of events) {
        if (event.event === RELAY_SSE_EVENTS.synced) return deliveries;
        if (event.event !== RELAY_SSE_EVENTS.callDelivery) continue;
        const data = CallDelivery.safeParse(JSON.parse(event.data));
        if (data.success && data.data.eventId === eventId) deliveries.push(data.data);
      }
      events = [];
    }
    return deliveries;
  } catch {
    // A stream cut short still tells what it replayed so far.
    return deliveries;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
