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
/** Ids of calls set aside on this device with "Later" on their notification: a repeat push never rings them here. */
export const SET_ASIDE_IDS_KEY = "setAsideIds";
/** Server address and device identity (device token, account id, device id). */
export const IDENTITY_KEY = "identity";
/** The end-to-end key (`rbk1_...`). */
export const E2E_KEY_KEY = "e2eKey";
/**
 * The device this device removed, while the key rotation its removal owes is not yet at the relay (the page closed
 * or the relay failed in between): the rotation is finished at the next start.
 */
export const KEY_ROTATION_OWED_KEY = "keyRotationOwed";
/** Voice choice and speed. */
export const VOICE_SETTINGS_KEY = "voice";
/** The user's form of address; absent means the generic default. */
export const FORM_OF_ADDRESS_KEY = "formOfAddress";
/** Set once the user made the first-visit "enable sound" gesture. */
export const SOUND_ENABLED_KEY = "soundEnabled";
/** The SSE id of the last event this device handled, sent as `Last-Event-ID` after a restart. */
export const LAST_EVENT_ID_KEY = "lastEventId";
/** Ring modes (name, time ranges, repeat days, rule, on/off). */
export const RING_MODES_KEY = "ringModes";
/** Which tone each ringtone item (incoming call, call waiting) uses. */
export const RINGTONE_CHOICES_KEY = "ringtoneChoices";
/** The list of the user's ringtone files (name, type, size, when added), without their audio. */
export const RINGTONE_INDEX_KEY = "ringtoneFiles";
/** A user's ringtone file (its audio) is stored as `ringtone.<id>`. */
const RINGTONE_FILE_PREFIX = "ringtone.";
export function ringtoneFileKey(id: string): string {
  return `${RINGTONE_FILE_PREFIX}${id}`;
}
/** The project and agent (and workspace) used by the last dispatch. */
export const DISPATCH_LAST_USED_KEY = "dispatchLastUsed";
/** The report (brief) language chosen in the app; absent means it follows the system. */
export const REPORT_LANGUAGE_KEY = "reportLanguage";
/** The interface language: follow the system, Chinese or English. */
export const INTERFACE_LANGUAGE_KEY = "interfaceLanguage";
/** This device's own language-model channel, for in-call questions (its key never leaves the device but to the model). */
export const QUESTION_CHANNEL_KEY = "questionChannel";
/** The computer (relay device id) whose daemon this device's settings and dispatches go to. */
export const COMPUTER_KEY = "computerDeviceId";
/** The watched tracker workspaces as last read from the daemon (ids only), for showing calls. */
export const WATCHED_WORKSPACES_KEY = "watchedWorkspaces";
/** Web Push: how often a call still ringing is pushed again (`{repeatSeconds}`), for re-subscribing. */
export const PUSH_SETTINGS_KEY = "push";
/** The service worker's last push steps (received, shown, quiet and why, failed): ids and outcomes only. */
export const PUSH_LOG_KEY = "pushLog";
/** Stored by older versions; discarded at start (the spec: an old shared secret is dropped). */
export const LEGACY_KEYS = ["sharedSecret"] as const;
