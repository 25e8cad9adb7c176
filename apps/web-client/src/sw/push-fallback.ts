import { callNotificationTag } from "../shared/notification-tag.js";
import { type CallNotice, ringingActions } from "./call-notification.js";
import { notificationTexts } from "./notification-texts.js";

/**
 * How long a push may take to become its notification before the plain call is shown instead: longer than the relay
 * wait (RELAY_WAIT_MS), so this only catches what nothing else bounds (storage that never answers, a bug).
 */
export const PUSH_FALLBACK_AFTER_MS = 12_000;

/**
 * What a push ends as when the worker could not work it out: `done` with the step it logged, or `fallback` because
 * it failed or took longer than `afterMs`, with why. A fallback still lets the late answer finish (same tag: it
 * replaces the plain call).
 */
export type PushHandling =
  | { readonly kind: "done"; readonly step: string }
  | { readonly kind: "fallback"; readonly why: string };

export async function settleWithin(work: Promise<string>, afterMs: number): Promise<PushHandling> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<PushHandling>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "fallback", why: `no answer within ${afterMs} ms` }), afterMs);
  });
  try {
    return await Promise.race([work.then((step): PushHandling => ({ kind: "done", step })), late]);
  } catch (error) {
    return { kind: "fallback", why: String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The plain ringing call shown when a push could not be worked out: a push must never end in silence ("the done
 * notification never arrived"). Its texts follow the browser's languages, as storage may be what failed.
 */
export function fallbackNotice(eventId: string | null, preferredLanguages: readonly string[]): CallNotice {
  const texts = notificationTexts("system", preferredLanguages);
  return {
    kind: "show",
    eventId,
    title: texts.genericCallTitle,
    body: texts.genericCallBody,
    tag: callNotificationTag(eventId ?? "unknown"),
    actions: ringingActions(texts),
  };
}
