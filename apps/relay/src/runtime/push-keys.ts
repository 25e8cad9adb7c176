import webpush from "web-push";
import type { RelayStore, VapidKeys } from "../store/store.js";

/**
 * The relay's VAPID key pair (RFC 8292): drawn on the first start and kept in the store, so every subscription
 * made against its public key keeps working across restarts and across instances sharing the database. The
 * private key never leaves the relay: it signs the VAPID token of each push and is never logged or returned.
 */
export class PushKeys {
  readonly #store: RelayStore;
  #keys: Promise<VapidKeys> | null = null;

  constructor(store: RelayStore) {
    this.#store = store;
  }

  get(): Promise<VapidKeys> {
    if (!this.#keys) {
      this.#keys = this.#store.vapidKeys(webpush.generateVAPIDKeys());
      // A failed read is tried again next time rather than remembered.
      this.#keys.catch(() => {
        this.#keys = null;
      });
    }
    return this.#keys;
  }
}
