import type { E2eKey } from "@ringback/e2e-crypto";
import { chooseComputer, computersOf, NoComputerError } from "../daemon/computer-choice.js";
import { DaemonClient } from "../daemon/daemon-client.js";
import { type ReadableDevice, readDeviceList } from "../devices/device-list.js";
import type { RelayClient } from "../relay/relay-client.js";
import type { LocalSettings } from "../storage/local-settings.js";
import { Observable } from "./observable.js";

export interface DaemonAccessView {
  /**
   * The account's computers as the relay last listed them (with `online`), their names read with the key (null: a
   * name that does not open); null before the first listing.
   */
  readonly computers: readonly ReadableDevice[] | null;
  readonly computerId: string | null;
  /** Watched tracker workspaces as the daemon last said; several put the workspace before the project in calls. */
  readonly watchedWorkspaces: readonly string[];
}

/**
 * Which computer's daemon this device talks to, and a `DaemonClient` for it: every daemon request is relayed,
 * sealed, to that computer. The choice is kept on the device.
 */
export class DaemonAccess extends Observable<DaemonAccessView> {
  constructor(
    private readonly settings: LocalSettings,
    private readonly connection: () => {
      relay: RelayClient;
      key: E2eKey;
      /** Follows the account's key rotations; the key now when it changed (see `DaemonClient`). */
      catchUpKey?: () => Promise<E2eKey | null>;
    },
  ) {
    super({ computers: null, computerId: null, watchedWorkspaces: [] });
  }

  async load(): Promise<void> {
    const [computerId, watchedWorkspaces] = await Promise.all([
      this.settings.loadComputerId(),
      this.settings.loadWatchedWorkspaces(),
    ]);
    this.update({ computerId, watchedWorkspaces });
  }

  /** Lists the account's computers and keeps (or makes) the choice. */
  async refreshComputers(): Promise<readonly ReadableDevice[]> {
    const { relay, key } = this.connection();
    const { devices } = await relay.listDevices();
    const computerId = chooseComputer(devices, this.view.computerId);
    if (computerId !== null && computerId !== this.view.computerId)
      await this.settings.saveComputerId(computerId);
    const computers = await readDeviceList(key, computersOf(devices));
    this.update({ computers, computerId });
    return computers;
  }

  async chooseComputer(computerId: string): Promise<void> {
    await this.settings.saveComputerId(computerId);
    this.update({ computerId });
  }

  /** A client for the chosen computer's daemon; rejects with NoComputerError when the account has none. */
  async client(): Promise<DaemonClient> {
    if (this.view.computerId === null) await this.refreshComputers();
    const computerId = this.view.computerId;
    if (computerId === null) throw new NoComputerError();
    const { relay, key, catchUpKey } = this.connection();
    return new DaemonClient(relay, key, computerId, catchUpKey);
  }

  /** Reads the watched workspaces from the daemon (for how calls show their project). */
  async refreshWatchedWorkspaces(): Promise<void> {
    const { settings } = await (await this.client()).trackerSettings();
    await this.setWatchedWorkspaces(settings?.workspaces ?? []);
  }

  async setWatchedWorkspaces(ids: readonly string[]): Promise<void> {
    await this.settings.saveWatchedWorkspaces(ids);
    this.update({ watchedWorkspaces: [...ids] });
  }
}
