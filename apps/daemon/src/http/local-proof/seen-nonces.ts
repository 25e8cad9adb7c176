/**
 * The nonces of proven requests, each kept until its request's time leaves the window: a copy of a request within
 * the window is refused by its nonce, one after it by its time.
 */
export class SeenNonces {
  readonly #expiries = new Map<string, number>();

  /** Records `nonce` until `expiresAt` (epoch ms); false when it was already recorded and has not expired. */
  isFirstUse(nonce: string, expiresAt: number, now: number): boolean {
    this.#forgetExpired(now);
    if (this.#expiries.has(nonce)) return false;
    this.#expiries.set(nonce, expiresAt);
    return true;
  }

  #forgetExpired(now: number): void {
    for (const [nonce, expiresAt] of this.#expiries) if (expiresAt <= now) this.#expiries.delete(nonce);
  }
}
