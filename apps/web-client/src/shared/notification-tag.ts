import { PUSH_NOTIFICATION_TAG_PREFIX, pushNotificationTag } from "@ringback/protocol";

/**
 * The tag of a ringing call's system notification, used by the page and the service worker alike: a pushed
 * notification and the page's own for the same call replace each other instead of stacking. Exported as
 * `@ringback/web-client/notification-tag`: the whole-system tests find a call's notification by it.
 */
export const CALL_NOTIFICATION_TAG_PREFIX = PUSH_NOTIFICATION_TAG_PREFIX;

/** The relay tags a declarative push's notification the same way, so the worker's replaces the browser's own. */
export function callNotificationTag(eventId: string): string {
  return pushNotificationTag(eventId);
}

/** The event id of a call notification's tag; null for any other tag. */
export function eventIdOfTag(tag: string): string | null {
  return tag.startsWith(CALL_NOTIFICATION_TAG_PREFIX) ? tag.slice(CALL_NOTIFICATION_TAG_PREFIX.length) : null;
}
