import { randomBytes } from "node:crypto";

/** Every "needs you" call's event id starts so: a reply to one is a decision, never a message for the agent. */
const PERMISSION_EVENT_ID_PREFIX = "needs_";

/** A fresh event id for one ask: `needs_` and 16 random bytes in base64url (never the same ask twice). */
export function mintPermissionEventId(): string {
  return `${PERMISSION_EVENT_ID_PREFIX}${randomBytes(16).toString("base64url")}`;
}

export function isPermissionEventId(eventId: string): boolean {
  return eventId.startsWith(PERMISSION_EVENT_ID_PREFIX);
}
