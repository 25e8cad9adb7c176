import type { NotificationTexts } from "@ringback/client/texts";

/** The actions of a ringing call's notification. A plain click counts as "answer". */
export const ANSWER_ACTION = "answer";
export const LATER_ACTION = "later";

/**
 * A phone's ring, felt: on 0.8 s, off 0.4 s, three times. Played once per ring (a new call, or a repeat push of it);
 * a missed call never vibrates.
 */
export const RING_VIBRATION_PATTERN_MS: readonly number[] = [800, 400, 800, 400, 800];

export interface CallAction {
  readonly action: typeof ANSWER_ACTION | typeof LATER_ACTION;
  readonly title: string;
}

/** A call notification to show: ringing, or a silent missed call. */
export interface CallNotice {
  readonly kind: "show" | "missed";
  readonly eventId: string | null;
  readonly title: string;
  readonly body: string;
  readonly tag: string;
  readonly actions: readonly CallAction[];
}

/**
 * The options the WebWorker types leave out (`actions`, `vibrate`, `renotify`) and Chromium shows, and `navigate`:
 * the address a tap opens, which Safari requires of a notification shown in place of a declarative push's.
 */
export interface CallNotificationOptions extends NotificationOptions {
  readonly actions: readonly CallAction[];
  readonly vibrate?: readonly number[];
  readonly renotify: boolean;
  readonly navigate?: string;
}

/** "Answer" and "Later" in the device's interface language. */
export function ringingActions(texts: NotificationTexts): readonly CallAction[] {
  return [
    { action: ANSWER_ACTION, title: texts.answerAction },
    { action: LATER_ACTION, title: texts.laterAction },
  ];
}

/**
 * How a call's notification is shown. A ringing call replaces the call's earlier notification (same tag), rings and
 * vibrates again (renotify) and stays until acted on. A missed call is silent, without a vibration (a browser refuses
 * a silent notification with one), and may go away on its own like any missed-call notice.
 */
export function callNotificationOptions(call: CallNotice, navigate?: string): CallNotificationOptions {
  const isRinging = call.kind === "show";
  return {
    ...(navigate ? { navigate } : {}),
    body: call.body,
    tag: call.tag,
    renotify: isRinging,
    silent: !isRinging,
    requireInteraction: isRinging,
    actions: call.actions,
    ...(isRinging ? { vibrate: RING_VIBRATION_PATTERN_MS } : {}),
    data: { eventId: call.eventId },
  };
}

/** What a click on a call's notification asks for: "Later", or the app on the call (a plain click, "Answer"). */
export function clickIntent(action: string): "set-aside" | "open" {
  return action === LATER_ACTION ? "set-aside" : "open";
}
