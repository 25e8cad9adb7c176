import type { RequestStamp } from "@ringback/protocol";

/** Bytes of a request's nonce. */
const NONCE_BYTES = 16;

/**
 * The time and a fresh random nonce sealed into every request this device addresses to a computer (a relayed
 * settings request, a dispatch, a reply): the computer refuses one whose time is outside its window or whose nonce
 * it has seen, so a relay cannot send it again.
 */
export function newRequestStamp(now: Date = new Date()): RequestStamp {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const nonce = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  return { sentAt: now.toISOString(), nonce };
}
