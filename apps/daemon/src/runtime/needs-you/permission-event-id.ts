import { randomBytes } from "node:crypto";
import { NEEDS_YOU_EVENT_ID_PREFIX } from "@ringback/protocol";

/** A fresh event id for one ask: `needs_` and 16 random bytes in base64url (never the same ask twice). */
export function mintPermissionEventId(): string {
  return `${NEEDS_YOU_EVENT_ID_PREFIX}${randomBytes(16).toString("base64url")}`;
}
