import { z } from "zod";

/** A nonce of a sealed request: 16 random bytes, base64url without padding. */
export const RequestNonce = z.string().regex(/^[A-Za-z0-9_-]{22}$/, "must be 16 bytes in base64url");

/**
 * What a device seals into every request it addresses to a computer (a relayed settings request, a dispatch, a
 * reply): when it was sealed (ISO 8601 UTC, the device's clock) and a fresh random nonce. The computer refuses a
 * request whose time is outside its window and one whose nonce it has seen: a relay cannot replay a request.
 */
export const RequestStamp = z.object({ sentAt: z.iso.datetime(), nonce: RequestNonce });
export type RequestStamp = z.infer<typeof RequestStamp>;

/**
 * How far a request's `sentAt` may be from the computer's clock, either way: the clocks of a phone and a computer
 * may differ this much. A settings request (relayed at once or not at all) is refused outside it.
 */
export const REQUEST_CLOCK_WINDOW_MS = 5 * 60 * 1000;
