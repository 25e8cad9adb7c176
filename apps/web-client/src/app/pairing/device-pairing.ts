import {
  createAccount,
  defaultDeviceName,
  deviceKindOf,
  joinWithCode,
  joinWithLink,
  type Pairing,
  RelayClient,
} from "@ringback/client";

export interface DevicePairingOptions {
  /** The page's address: the relay that served it is the default for a new account or a code join. */
  readonly href: string;
  readonly userAgent: string;
  readonly fetch?: typeof fetch;
  /** The clock the joining time is read from (the page's own). */
  readonly now?: () => Date;
  /** The device joined an account: kept on the device, then the calls start. */
  readonly onPaired: (pairing: Pairing) => Promise<void>;
}

/** The welcome page's three ways to pair this device: a pairing link, a code with the phrase, or a new account. */
export class DevicePairing {
  readonly #options: DevicePairingOptions;
  /** The name a device gets when none is typed: its browser and system, from the user agent. */
  readonly defaultDeviceName: string;
  /** The relay address a new account or a code join defaults to: the relay that served this page. */
  readonly defaultServerUrl: string;

  constructor(options: DevicePairingOptions) {
    this.#options = options;
    this.defaultDeviceName = defaultDeviceName(options.userAgent);
    this.defaultServerUrl = new URL(options.href).origin;
  }

  /** A relay the welcome page asks how it is set up, before any device of this account exists. */
  relayClient(serverUrl: string): RelayClient {
    return new RelayClient({ serverUrl, fetch: this.#options.fetch });
  }

  async joinWithLink(link: string, deviceName: string): Promise<void> {
    await this.#options.onPaired(this.#joined(await joinWithLink(link, this.#newDevice(deviceName))));
  }

  async joinWithCode(
    input: { serverUrl: string; code: string; phrase: string },
    deviceName: string,
  ): Promise<void> {
    await this.#options.onPaired(this.#joined(await joinWithCode(input, this.#newDevice(deviceName))));
  }

  async createAccount(
    input: { serverUrl: string; claimCode?: string; phrase?: string },
    deviceName: string,
  ): Promise<void> {
    await this.#options.onPaired(this.#joined(await createAccount(input, this.#newDevice(deviceName))));
  }

  /** The pairing with the time it was made: calls raised before it do not ring on this device. */
  #joined(pairing: Pairing): Pairing {
    const joinedAt = (this.#options.now?.() ?? new Date()).toISOString();
    return { ...pairing, identity: { ...pairing.identity, joinedAt } };
  }

  #newDevice(deviceName: string) {
    const name = deviceName.trim() || this.defaultDeviceName;
    return {
      deviceName: name,
      deviceKind: deviceKindOf(this.#options.userAgent),
      fetch: this.#options.fetch,
    };
  }
}
