import webpush from "web-push";
import type { VapidKeys } from "../store/store.js";

/**
 * How long one signed VAPID token (RFC 8292) is sent to a push service before a new one is signed: far inside the
 * 12 hours web-push writes into its `exp` (a push service takes up to 24), so a token never goes out near its end,
 * and a push to a service pushed to lately signs nothing (an ECDSA signature less before it leaves).
 */
export const VAPID_TOKEN_REUSE_MS = 60 * 60 * 1000;
/** Push services (and keys, and subjects) whose token is kept at most; the oldest is dropped first. */
const VAPID_TOKENS_KEPT_MAX = 256;

interface SignedToken {
  readonly authorization: string;
  readonly signedAt: number;
}

/**
 * The `Authorization` header of a push to a push service: `vapid t=<token>, k=<public key>`, signed by the relay's
 * key for that service (`audience`: its origin) and reused for `VAPID_TOKEN_REUSE_MS`. Real time, not the relay's
 * clock: the token's `exp` is read by the push service against its own.
 */
export class VapidTokens {
  readonly #tokens = new Map<string, SignedToken>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Throws what web-push throws for keys or a subject it cannot sign with. */
  authorization(audience: string, subject: string, keys: VapidKeys): string {
    const name = `${keys.publicKey} ${subject} ${audience}`;
    const now = this.#now();
    const kept = this.#tokens.get(name);
    if (kept && now - kept.signedAt < VAPID_TOKEN_REUSE_MS && now >= kept.signedAt) return kept.authorization;
    const { Authorization: authorization } = webpush.getVapidHeaders(
      audience,
      subject,
      keys.publicKey,
      keys.privateKey,
      "aes128gcm",
    );
    this.#tokens.delete(name);
    this.#tokens.set(name, { authorization, signedAt: now });
    if (this.#tokens.size > VAPID_TOKENS_KEPT_MAX) {
      const oldest = this.#tokens.keys().next().value;
      if (oldest !== undefined) this.#tokens.delete(oldest);
    }
    return authorization;
  }
}
