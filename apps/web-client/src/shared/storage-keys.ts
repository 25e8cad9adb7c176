/*
 * The names under which the device keeps its data in IndexedDB (idb-keyval's default database). The page and the
 * service worker read the same keys, so they are named once, here.
 */

/** A call record is stored as `call.<eventId>`. */
export const CALL_RECORD_PREFIX = "call.";

export function callRecordKey(eventId: string): string {
  return `${CALL_RECORD_PREFIX}${eventId}`;
}

/** Ids of calls answered on this device. */
export const ANSWERED_IDS_KEY = "answeredIds";
/** Server address and device identity (device token, account id, device id). */
export const IDENTITY_KEY = "identity";
/** The end-to-end key (`rbk1_...`). */
export const E2E_KEY_KEY = "e2eKey";
/** Voice choice and speed. */
export const VOICE_SETTINGS_KEY = "voice";
/** The user's form of address; absent means the generic default. */
export const FORM_OF_ADDRESS_KEY = "formOfAddress";
/** Set once the user made the first-visit "enable sound" gesture. */
export const SOUND_ENABLED_KEY = "soundEnabled";
/** The SSE id of the last event this device handled, sent as `Last-Event-ID` after a restart. */
export const LAST_EVENT_ID_KEY = "lastEventId";
/** Stored by older versions; discarded at start (the spec: an old shared secret is dropped). */
export const LEGACY_KEYS = ["sharedSecret"] as const;
