import type { E2eKey } from "@ringback/e2e-crypto";
import { KeyRotationApplied } from "@ringback/protocol";
import { DaemonClient } from "../daemon/daemon-client.js";
import { resealOwnDeviceName } from "../devices/own-device-name.js";
import type { RelayClient } from "../relay/relay-client.js";
import { isRelayError } from "../relay/relay-error.js";
import type { LocalSettings, Pairing } from "../storage/local-settings.js";
import { followKeyRotations } from "./follow-rotations.js";
import { type KeyRotation, sealKeyRotation } from "./rotation-notice.js";

/** Rotations tried when other devices keep rotating first (each try starts from the newest key). */
const ROTATION_ATTEMPTS_MAX = 3;

/** How a computer took the new key when this device told it: at once, or later from the relay's notice. */
export type ComputerMove = "moved" | "later";

export interface KeyRotatorOptions {
  readonly settings: LocalSettings;
  /** The relay as this device. */
  readonly relay: () => RelayClient;
  /** This device's pairing now; throws when it is not paired. */
  readonly pairing: () => Pairing;
  /** The pairing with its new key, for everything that reads it from now on. */
  readonly onKeyChanged: (pairing: Pairing) => void;
  readonly now?: () => Date;
}

/**
 * Removing a device ends its power: the account's key is replaced by a new random one, which only the remaining
 * devices and computers get. The removed device's token is revoked first; then the new key, sealed under the old, is
 * kept at the relay as a notice for the account (which a revoked token never reads), and each computer is told at
 * once through the settings path. Every device and computer that holds the old key follows the notices when it
 * next connects or meets a key it does not hold (`catchUp`).
 */
export class KeyRotator {
  readonly #options: KeyRotatorOptions;
  #catchingUp: Promise<boolean> | null = null;

  constructor(options: KeyRotatorOptions) {
    this.#options = options;
  }

  /**
   * Removes another device of the account and rotates the key; resolves with how each computer took it. The
   * removal is remembered until the rotation is at the relay, so a page closed in between finishes it at its next
   * start (`finishOwedRotation`).
   */
  async removeDevice(deviceId: string): Promise<Map<string, ComputerMove>> {
    const { settings } = this.#options;
    await settings.saveKeyRotationOwed(deviceId);
    try {
      await this.#options.relay().removeDevice(deviceId);
    } catch (error) {
      // Already removed (a second tap, or another device did it): the rotation is still owed.
      if (!(isRelayError(error) && error.status === 404)) {
        await settings.saveKeyRotationOwed(null);
        throw error;
      }
    }
    return this.#rotate(deviceId);
  }

  /** The rotation a removal cut short (the page closed, the relay failed): done now; null when none is owed. */
  async finishOwedRotation(): Promise<Map<string, ComputerMove> | null> {
    const owed = await this.#options.settings.loadKeyRotationOwed();
    return owed === null ? null : this.#rotate(owed);
  }

  /**
   * Follows the relay's rotation notices from this device's key; true when the key changed. One catch-up at a time:
   * callers that meet an unknown key together share it.
   */
  catchUp(): Promise<boolean> {
    this.#catchingUp ??= this.#followNotices().finally(() => {
      this.#catchingUp = null;
    });
    return this.#catchingUp;
  }

  async #followNotices(): Promise<boolean> {
    const { rotations } = await this.#options.relay().keyRotations();
    const current = this.#options.pairing().key;
    const followed = await followKeyRotations(current, rotations);
    if (followed.steps === 0) return false;
    await this.#adopt(current, followed.key);
    return true;
  }

  async #rotate(removedDeviceId: string): Promise<Map<string, ComputerMove>> {
    for (let attempt = 1; ; attempt++) {
      // From the newest key: a rotation made elsewhere meanwhile is followed first.
      await this.catchUp();
      const rotation = await sealKeyRotation(this.#options.pairing().key, {
        removedDeviceId,
        now: this.#options.now?.(),
      });
      try {
        await this.#options.relay().postKeyRotation(rotation.notice);
      } catch (error) {
        const isConflict = isRelayError(error) && error.code === "key_rotation_conflict";
        if (isConflict && attempt < ROTATION_ATTEMPTS_MAX) continue;
        throw error;
      }
      await this.#adopt(rotation.previous, rotation.next);
      await this.#options.settings.saveKeyRotationOwed(null);
      return this.#tellComputers(rotation);
    }
  }

  /** This device takes `next`; its name at the relay is sealed again under it (a failure there leaves the key). */
  async #adopt(previous: E2eKey, next: E2eKey): Promise<void> {
    const pairing = { ...this.#options.pairing(), key: next };
    await this.#options.settings.saveKey(next);
    this.#options.onKeyChanged(pairing);
    await resealOwnDeviceName(
      this.#options.relay(),
      { previous, next },
      pairing.identity.deviceName ?? null,
    ).catch(() => null);
  }

  /**
   * Each computer of the account gets the notice through the settings path, sealed under the key it still holds,
   * so it moves now; one that is offline (or answers otherwise) moves when it next connects, from the relay's notice.
   */
  async #tellComputers(rotation: KeyRotation): Promise<Map<string, ComputerMove>> {
    const relay = this.#options.relay();
    const { devices } = await relay.listDevices().catch(() => ({ devices: [] }));
    const computers = devices.filter((device) => device.kind === "computer");
    const moves = await Promise.all(
      computers.map(async (computer): Promise<[string, ComputerMove]> => {
        const client = new DaemonClient(relay, rotation.previous, computer.id);
        const applied = await client
          .call({ method: "POST", path: "/key-rotation", body: rotation.notice }, KeyRotationApplied)
          .catch(() => null);
        return [computer.id, applied?.rotated ? "moved" : "later"];
      }),
    );
    return new Map(moves);
  }
}
