import { RingbackError } from "@ringback/protocol";

interface Waiter {
  resolve(sealed: string): void;
  reject(error: RingbackError): void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Relayed settings requests waiting for their computer's sealed answer, by device and request id, each with a
 * deadline. Used by this instance's own links and by the cross-instance exchange alike.
 */
export class SettingsWaiters {
  readonly #waiting = new Map<string, Waiter>();

  has(deviceId: string, requestId: string): boolean {
    return this.#waiting.has(waiterKey(deviceId, requestId));
  }

  /** The answer to come; 504 `computer_timeout` after `timeoutMs`. The caller checks `has` first. */
  wait(deviceId: string, requestId: string, timeoutMs: number): Promise<string> {
    const key = waiterKey(deviceId, requestId);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(key);
        reject(new RingbackError("computer_timeout"));
      }, timeoutMs);
      this.#waiting.set(key, { resolve, reject, timer });
    });
  }

  resolve(deviceId: string, requestId: string, sealed: string): void {
    this.#settle(waiterKey(deviceId, requestId), (waiter) => waiter.resolve(sealed));
  }

  reject(deviceId: string, requestId: string, error: RingbackError): void {
    this.#settle(waiterKey(deviceId, requestId), (waiter) => waiter.reject(error));
  }

  /** Every request waiting for `deviceId` (its link closed), or for any device when null (shutdown): 503. */
  rejectOffline(deviceId: string | null): void {
    const prefix = deviceId === null ? "" : waiterKey(deviceId, "");
    for (const key of [...this.#waiting.keys()]) {
      if (key.startsWith(prefix))
        this.#settle(key, (waiter) => waiter.reject(new RingbackError("computer_offline")));
    }
  }

  #settle(key: string, settle: (waiter: Waiter) => void): void {
    const waiter = this.#waiting.get(key);
    if (!waiter) return;
    this.#waiting.delete(key);
    clearTimeout(waiter.timer);
    settle(waiter);
  }
}

export function inFlightError(): RingbackError {
  return new RingbackError("invalid_request", "A request with this requestId is in flight.");
}

function waiterKey(deviceId: string, requestId: string): string {
  return `${deviceId}\n${requestId}`;
}
