/** Bytes of request bodies the relay may hold at once: per device, per client address, and in all. */
export interface BodyBudgetLimits {
  readonly perDevice: number;
  readonly perAddress: number;
  readonly total: number;
}

/**
 * Request bodies in flight, counted before they are read (their declared length, or the route's maximum when they
 * declare none): a body that would take a device, an address or the whole relay past its budget is not read at all,
 * so any number of concurrent uploads costs at most the budget in memory.
 */
export class BodyBudget {
  readonly #limits: BodyBudgetLimits;
  readonly #byDevice = new Map<string, number>();
  readonly #byAddress = new Map<string, number>();
  #total = 0;

  constructor(limits: BodyBudgetLimits) {
    this.#limits = limits;
  }

  /** Takes `bytes` for the device (null before authentication) and address; null when it does not fit. */
  reserve(
    who: { readonly deviceId: string | null; readonly address: string },
    bytes: number,
  ): (() => void) | null {
    const ofDevice = who.deviceId === null ? 0 : (this.#byDevice.get(who.deviceId) ?? 0);
    const ofAddress = this.#byAddress.get(who.address) ?? 0;
    if (
      this.#total + bytes > this.#limits.total ||
      ofAddress + bytes > this.#limits.perAddress ||
      (who.deviceId !== null && ofDevice + bytes > this.#limits.perDevice)
    ) {
      return null;
    }
    this.#total += bytes;
    add(this.#byAddress, who.address, bytes);
    if (who.deviceId !== null) add(this.#byDevice, who.deviceId, bytes);
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      this.#total -= bytes;
      add(this.#byAddress, who.address, -bytes);
      if (who.deviceId !== null) add(this.#byDevice, who.deviceId, -bytes);
    };
  }

  /** Bytes held now, in all. */
  get total(): number {
    return this.#total;
  }
}

function add(map: Map<string, number>, key: string, bytes: number): void {
  const next = (map.get(key) ?? 0) + bytes;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}
