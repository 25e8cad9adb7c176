import {
  type DaemonAccess,
  hasDaemonCode,
  isDaemonUnreachable,
  type LocalSettings,
  NoComputerError,
  type OwnNameRelay,
  type Pairing,
  resealOwnDeviceName,
} from "@ringback/client";
import { deriveKeyFromPassphrase } from "@ringback/e2e-crypto";

/** Whether the computer's end-to-end key is this device's (Settings › Encryption checks it with a relayed request). */
export type ComputerKeyCheck = "matches" | "differs" | "offline" | "no-computer";

export interface ComputerKeyOptions {
  readonly settings: LocalSettings;
  readonly daemon: DaemonAccess;
  /** The relay as this device, where its (sealed) name is listed. */
  readonly relay: () => OwnNameRelay;
  /** This device's pairing now; throws when it is not paired. */
  readonly pairing: () => Pairing;
  /** The pairing with its new key, for everything that reads it from now on. */
  readonly onPairingChanged: (pairing: Pairing) => void;
}

/** This device's end-to-end key, as Settings › Encryption changes it, and whether the computer has the same. */
export class ComputerKey {
  readonly #options: ComputerKeyOptions;

  constructor(options: ComputerKeyOptions) {
    this.#options = options;
  }

  /**
   * This device's key becomes the one derived from the phrase (the phrase is not kept). The computer's key cannot be
   * replaced from here (the relay refuses `/e2e/*` with 403 `not_relayed`), so the user sets the same phrase on the
   * computer; the answer says whether the computer already has it.
   */
  async changeKey(phrase: string): Promise<ComputerKeyCheck> {
    const current = this.#options.pairing();
    // Salted with the account's id (passphrase keys version 2): the computer derives the same from the same phrase.
    const key = await deriveKeyFromPassphrase(phrase, current.identity.accountId);
    const pairing = { ...current, key };
    await this.#options.settings.saveKey(key);
    this.#options.onPairingChanged(pairing);
    // This device's name is sealed again under the new key, which the devices that share it open. The key stands
    // whatever happens there: a name not re-sealed reads as the device's kind on those devices.
    await resealOwnDeviceName(
      this.#options.relay(),
      { previous: current.key, next: key },
      current.identity.deviceName ?? null,
    ).catch(() => null);
    return this.checkComputerKey();
  }

  /** Asks the computer something harmless through the relay: another key gives 400 `undecryptable_request`. */
  async checkComputerKey(): Promise<ComputerKeyCheck> {
    try {
      await (await this.#options.daemon.client()).briefLanguage();
      return "matches";
    } catch (error) {
      if (error instanceof NoComputerError) return "no-computer";
      if (hasDaemonCode(error, "undecryptable_request")) return "differs";
      if (isDaemonUnreachable(error)) return "offline";
      return "matches";
    }
  }
}
