import { ERROR_STATUS, isErrorCode, isRingbackError, RingbackError } from "@ringback/protocol";
import type { RelayCluster, SenderStamp, SettingsAnswer } from "../cluster/relay-cluster.js";
import { inFlightError, SettingsWaiters } from "../cluster/settings-waiters.js";
import type { DaemonLinks } from "./daemon-links.js";

const UNAUTHORIZED_STATUS = 401;

/**
 * Relayed settings requests in flight on this process, each waiting for its computer's answer. A computer whose
 * link another instance holds is reached through the cluster, with the same wait and the same errors.
 */
export class SettingsRelay {
  readonly #waiters = new SettingsWaiters();
  readonly #links: DaemonLinks;
  readonly #cluster: RelayCluster;
  readonly #timeoutMs: number;

  constructor(links: DaemonLinks, cluster: RelayCluster, timeoutMs: number) {
    this.#links = links;
    this.#cluster = cluster;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Forwards a sealed request, stamped with the id of the device whose token sent it (the daemon acts for that
   * device, whatever the sealed body names), and resolves with the sealed result; 503, 504 or the daemon's own
   * refusal otherwise.
   */
  request(deviceId: string, requestId: string, sealed: string, stamp: SenderStamp): Promise<string> {
    if (this.#waiters.has(deviceId, requestId)) return Promise.reject(inFlightError());
    if (!this.#links.isOnline(deviceId)) {
      return this.#cluster.relaySettings(deviceId, requestId, sealed, this.#timeoutMs, stamp);
    }
    return this.#forward(deviceId, requestId, sealed, stamp);
  }

  /** Another instance relayed a request to the link held here: forwarded, and the outcome written back. */
  async answerRelayed(
    deviceId: string,
    requestId: string,
    sealed: string,
    stamp: SenderStamp,
  ): Promise<void> {
    let answer: SettingsAnswer;
    try {
      answer = { sealed: await this.#forward(deviceId, requestId, sealed, stamp) };
    } catch (error) {
      const refusal = isRingbackError(error) ? error : new RingbackError("internal_error");
      answer = { error: { code: refusal.code, message: refusal.message } };
    }
    await this.#cluster.answerSettings(deviceId, requestId, answer);
  }

  #forward(deviceId: string, requestId: string, sealed: string, stamp: SenderStamp): Promise<string> {
    if (this.#waiters.has(deviceId, requestId)) return Promise.reject(inFlightError());
    if (!this.#links.isOnline(deviceId)) return Promise.reject(new RingbackError("computer_offline"));
    const answer = this.#waiters.wait(deviceId, requestId, this.#timeoutMs);
    const message = { type: "settings-request", requestId, sealed, ...stamp } as const;
    if (!this.#links.send(deviceId, message)) {
      this.#waiters.reject(deviceId, requestId, new RingbackError("computer_offline"));
    }
    return answer;
  }

  resolve(deviceId: string, requestId: string, sealed: string): void {
    this.#waiters.resolve(deviceId, requestId, sealed);
  }

  /** The daemon refused in plaintext (it could not open the request, or the path is local only). */
  refuse(deviceId: string, requestId: string, code: string, message: string): void {
    // A 401 from the relay means "this device was removed"; a daemon must not be able to say that.
    const isPassable = isErrorCode(code) && ERROR_STATUS[code] !== UNAUTHORIZED_STATUS;
    const error = isPassable ? new RingbackError(code, message) : new RingbackError("internal_error");
    this.#waiters.reject(deviceId, requestId, error);
  }

  /** The computer's link closed: its requests can no longer be answered. */
  linkClosed(deviceId: string): void {
    this.#waiters.rejectOffline(deviceId);
  }

  closeAll(): void {
    this.#waiters.rejectOffline(null);
  }
}
