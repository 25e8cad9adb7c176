import type { PushCallMessage, RelayedEvent } from "@ringback/protocol";

/**
 * The call a push carries sealed (`PushCallMessage.sealed`), as the relay would hand it over (`GET /v1/calls/<id>`):
 * ringing, since the relay pushes only a call that rings. Null when the push carries it by reference: the worker
 * fetches it then.
 */
export function pushedEvent(message: PushCallMessage): RelayedEvent | null {
  if (message.sealed === undefined) return null;
  return {
    seq: message.seq,
    eventId: message.eventId,
    source: message.source,
    occurredAt: message.occurredAt,
    receivedAt: message.receivedAt,
    taskId: message.taskId,
    fromDeviceId: message.fromDeviceId,
    sealed: message.sealed,
    status: "pending",
  };
}
