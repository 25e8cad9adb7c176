import { E2eError } from "./e2e-error.js";

declare const aadBrand: unique symbol;

/** Associated data naming what a sealed string is for; only the builders below make one. */
export type Aad = string & { readonly [aadBrand]: true };

const AAD_PREFIX = "ringback/v1/";
/**
 * Associated data of a device's name: the purpose alone. A device seals its name before the relay has given it an id
 * (when it creates an account or joins one), so there is no id to name; see `sealDeviceName`.
 */
export const DEVICE_NAME_AAD = `${AAD_PREFIX}device-name`;
/** Associated data of a message addressed to one computer: it names that computer too. */
const ADDRESSED_AAD_PREFIX = "ringback/v2/";

/** The purposes of version 1, as written in the associated data. */
export const AAD_PURPOSES = [
  "report",
  "reply",
  "reply-error",
  "settings-request",
  "settings-result",
  "key-rotation",
  "fleet",
] as const;
export type AadPurpose = (typeof AAD_PURPOSES)[number];

/**
 * The purposes of messages a device sends to one computer, which that computer runs (a request, a reply that resumes
 * an agent): their associated data names the computer (`ringback/v2/<purpose>/<computerId>/<id>`), so a copy cannot
 * be sent to another computer of the account, and their plaintext carries a time and a nonce (protocol's
 * `RequestStamp`) so that the computer refuses a copy sent again.
 */
export const ADDRESSED_AAD_PURPOSES = ["settings-request", "reply", "permission-decision"] as const;
export type AddressedAadPurpose = (typeof ADDRESSED_AAD_PURPOSES)[number];

// "/" would let an id reach into the label's structure, and control characters never occur in the ids the
// daemon and the relay mint; refusing both keeps every associated data string readable one way only.
export function isValidId(id: unknown): id is string {
  if (typeof id !== "string" || id.length === 0) return false;
  for (let index = 0; index < id.length; index++) {
    const code = id.charCodeAt(index);
    if (code === 0x2f || code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** `ringback/v1/<purpose>/<id>`; the id must be non-empty with no "/" or control character (`invalid_aad`). */
export function aadFor(purpose: AadPurpose, id: string): Aad {
  if (!AAD_PURPOSES.includes(purpose)) {
    throw new E2eError("invalid_aad", `Unknown associated data purpose "${String(purpose)}".`);
  }
  if (!isValidId(id)) {
    throw new E2eError(
      "invalid_aad",
      `The ${purpose} id must be non-empty with no "/" or control character.`,
    );
  }
  return `${AAD_PREFIX}${purpose}/${id}` as Aad;
}

/**
 * `ringback/v2/<purpose>/<computerId>/<id>` for a message addressed to one computer (its relay device id); both ids
 * follow the rule of `aadFor` (`invalid_aad`).
 */
export function aadTo(purpose: AddressedAadPurpose, computerId: string, id: string): Aad {
  if (!ADDRESSED_AAD_PURPOSES.includes(purpose)) {
    throw new E2eError("invalid_aad", `Unknown addressed associated data purpose "${String(purpose)}".`);
  }
  if (!isValidId(computerId) || !isValidId(id)) {
    throw new E2eError(
      "invalid_aad",
      `The computer id and the ${purpose} id must be non-empty with no "/" or control character.`,
    );
  }
  return `${ADDRESSED_AAD_PREFIX}${purpose}/${computerId}/${id}` as Aad;
}

/**
 * Guards sealing and opening against associated data that no builder made (plain JavaScript callers):
 * `TextEncoder` would silently turn `undefined` into empty associated data.
 */
export function assertAad(value: unknown): asserts value is Aad {
  if (
    typeof value !== "string" ||
    !(value.startsWith(AAD_PREFIX) || value.startsWith(ADDRESSED_AAD_PREFIX))
  ) {
    throw new E2eError("invalid_aad", "Associated data must come from one of the aad builders.");
  }
}

/** One associated data builder per purpose. */
export const aad = {
  /** A daemon report (report and brief) for an event. */
  report: (eventId: string): Aad => aadFor("report", eventId),
  /** A reply from a device to an event, as older devices sealed it (computers now refuse it: use `replyTo`). */
  reply: (eventId: string): Aad => aadFor("reply", eventId),
  /** A reply from a device to an event, addressed to the computer that reported the event. */
  replyTo: (computerId: string, eventId: string): Aad => aadTo("reply", computerId, eventId),
  /** Why a reply failed, for a reply id. */
  replyError: (replyId: string): Aad => aadFor("reply-error", replyId),
  /** A settings request as older devices sealed it (computers now refuse it: use `settingsRequestTo`). */
  settingsRequest: (requestId: string): Aad => aadFor("settings-request", requestId),
  /** A settings request relayed from a device to one computer's daemon. */
  settingsRequestTo: (computerId: string, requestId: string): Aad =>
    aadTo("settings-request", computerId, requestId),
  /** A device's allow or deny of an agent's permission ask (the "needs you" call `eventId`), to the computer that raised it. */
  permissionDecisionTo: (computerId: string, eventId: string): Aad =>
    aadTo("permission-decision", computerId, eventId),
  /** The daemon's answer to a settings request. */
  settingsResult: (requestId: string): Aad => aadFor("settings-result", requestId),
  /**
   * A new account key sealed under the key it replaces, for every remaining device and computer of the account (one
   * notice for all, so it names no computer; it only ever moves a holder of the old key to a fresh one).
   */
  keyRotation: (rotationId: string): Aad => aadFor("key-rotation", rotationId),
  /**
   * A computer's fleet state (what its agents are doing), for the account's devices; the id is the computer's relay
   * device id, so one computer's state cannot pass for another's.
   */
  fleet: (computerId: string): Aad => aadFor("fleet", computerId),
  /** A device's name as the relay stores and lists it (`ringback/v1/device-name`, no id). */
  deviceName: (): Aad => DEVICE_NAME_AAD as Aad,
} as const;
