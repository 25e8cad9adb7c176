import { CallDelivery, RELAY_SSE_EVENTS, RelayedEvent } from "@ringback/protocol";

const RELAY_TIMEOUT_MS = 5_000;

/** Where a sent report's call stands at the relay, and how far it got on each device. */
export interface CallAtRelay {
  readonly status: RelayedEvent["status"];
  /** `<device name>: pushed|shown|opened`, in the order the relay recorded them. */
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
  return { status: call.status, deliveries };
}

async function replayDeliveries(
  serverUrl: string,
  headers: Record<string, string>,
  eventId: string,
  fromSeq: number,
): Promise<string[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), RELAY_TIMEOUT_MS);
  const deliveries: string[] = [];
  try {
    const response = await fetch(new URL(`/v1/stream?lastEventId=${fromSeq}`, serverUrl), {
      headers: { ...headers, accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (!response.ok || !response.body) return deliveries;
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk, { stream: true });
      const frames = buffered.split("\n\n");
      buffered = frames.pop() ?? "";
      for (const frame of frames) {
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        if (event === RELAY_SSE_EVENTS.synced) return deliveries;
        if (event !== RELAY_SSE_EVENTS.callDelivery) continue;
        const data = CallDelivery.safeParse(JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? "null"));
        if (data.success && data.data.eventId === eventId)
          deliveries.push(`${data.data.deviceName}: ${data.data.outcome}`);
      }
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
