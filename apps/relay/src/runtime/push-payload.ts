import {
  DECLARATIVE_PUSH_MARKER,
  type DeclarativePushMessage,
  isNeedsYouEventId,
  PUSH_PAYLOAD_MAX_BYTES,
  type PushCallSettledMessage,
  type PushMessage,
  pushNotificationTag,
} from "@ringback/protocol";

/**
 * What a browser shows by itself when no service worker replaces it (Declarative Web Push): words without content,
 * since the relay cannot read a call. The event id is all the relay knows of its kind: a "needs you" call's starts
 * with `needs_`; a finished turn and a tracker question read the same.
 */
export const PUSH_WORDS = {
  call: { title: "A call from Ringback", body: "Open Ringback to hear it." },
  needsYou: { title: "An agent needs you", body: "Open Ringback to answer." },
} as const;

/** A call that stopped ringing, as a browser showing it by itself says it (silently, in the ringing one's place). */
function settledTitle(message: PushCallSettledMessage): string {
  const isNeedsYou = isNeedsYouEventId(message.eventId);
  switch (message.status) {
    case "answered":
    case "rejected":
    case "acknowledged":
      return "Taken on another device";
    case "ended":
      return isNeedsYou ? "An agent no longer needs you" : "Call ended";
    case "expired":
      return isNeedsYou ? "An agent needed you" : "Missed call from Ringback";
  }
}

/**
 * The JSON a push carries. With the web app's address (`--public-url`) every push is a declarative message:
 * content-free words, `mutable` so the service worker may show the opened call instead, the relay's message in
 * `notification.data` and a tap that opens the call. Without it (a declarative message must name an absolute
 * address) the message goes bare, as before. A sealed call that would not fit one push record is left out: the worker
 * fetches it by its event id.
 */
export function pushPayload(message: PushMessage, appUrl: string | null): string {
  const text = payloadText(message, appUrl);
  if (message.type !== "call" || message.sealed === undefined || fits(text)) return text;
  const { sealed: _left, ...byReference } = message;
  return payloadText(byReference, appUrl);
}

function payloadText(message: PushMessage, appUrl: string | null): string {
  return JSON.stringify(appUrl === null ? message : declarative(message, appUrl));
}

function declarative(message: PushMessage, appUrl: string): DeclarativePushMessage {
  const isRinging = message.type === "call";
  const words = isNeedsYouEventId(message.eventId) ? PUSH_WORDS.needsYou : PUSH_WORDS.call;
  const navigate = new URL(appUrl);
  navigate.hash = `call=${encodeURIComponent(message.eventId)}`;
  return {
    web_push: DECLARATIVE_PUSH_MARKER,
    notification: {
      title: isRinging ? words.title : settledTitle(message),
      body: isRinging ? words.body : "",
      navigate: navigate.href,
      tag: pushNotificationTag(message.eventId),
      silent: !isRinging,
      requireInteraction: isRinging,
      data: message,
    },
    mutable: true,
  };
}

function fits(text: string): boolean {
  return Buffer.byteLength(text, "utf8") <= PUSH_PAYLOAD_MAX_BYTES;
}
