import { RingbackError } from "@ringback/protocol";

/*
 * What a relay instance shares with the other instances on the same database: news of committed stream
 * entries and removed devices, who holds each daemon link, and settings requests and replies for a link held
 * elsewhere. One instance on SQLite is its own cluster (`singleInstanceCluster`); PostgreSQL instances use
 * `PostgresCluster` (LISTEN/NOTIFY and rows).
 */

/** What this instance does when another instance (or its own transaction) announces something. */
export interface ClusterHandlers {
  /** An account's stream grew up to `seq`; the entries are in the store. */
  entriesCommitted(accountId: string, seq: number): void;
  /** A device was removed: its streams and link close here too. */
  deviceRemoved(deviceId: string): void;
  /** A reply was queued for a computer: send it if its link is here. */
  replyQueued(deviceId: string, replyId: string): void;
  /** Another instance relays a settings request to the link held here; answer with `answerSettings`. */
  settingsRequested(deviceId: string, requestId: string, sealed: string, stamp: SenderStamp): void;
  /** Another instance stored a computer's fleet state: pass it on to the account's streams here. */
  fleetChanged(accountId: string, computerId: string): void;
  /** Announcements may have been missed (the LISTEN connection was lost): read the store again. */
  resync(): void;
}

/** This instance's claim on a daemon link, for as long as the link is open. */
export interface LinkLease {
  /** The link closed: the claim is dropped (unless a newer link of the device claimed it meanwhile). */
  release(): Promise<void>;
}

/**
 * The device whose token sent a relayed settings request, as the relay tells the computer; absent only from a request
 * another instance, older than the stamp, relayed here (the computer then acts for no device in particular).
 */
export interface SenderStamp {
  readonly senderDeviceId?: string;
}

/** The answer to a relayed settings request: the daemon's sealed result, or the error the requester gets. */
export type SettingsAnswer =
  | { readonly sealed: string }
  | { readonly error: { readonly code: string; readonly message: string } };

export interface RelayCluster {
  setHandlers(handlers: ClusterHandlers): void;
  /**
   * Claims the device's link for this instance. `onReplaced` runs when a newer link of the same device opens
   * on another instance: this one must then close (one link per device).
   */
  holdLink(deviceId: string, onReplaced: () => void): LinkLease;
  /** The devices (of `deviceIds`) whose link another live instance holds. */
  linksHeldElsewhere(deviceIds: readonly string[]): Promise<Set<string>>;
  /** This instance stored a computer's fleet state (and passed it on to its own streams): the others pass it on. */
  announceFleet(accountId: string, computerId: string): Promise<void>;
  /** A reply was queued for a computer whose link is not on this instance. */
  announceReply(deviceId: string, replyId: string): Promise<void>;
  /**
   * Relays a settings request to the instance holding the device's link and waits up to `timeoutMs`: resolves
   * with the sealed result, rejects 503 `computer_offline` when no instance holds a link, 504 `computer_timeout`,
   * 400 `invalid_request` when the request id is already in flight, or the daemon's own refusal.
   */
  relaySettings(
    deviceId: string,
    requestId: string,
    sealed: string,
    timeoutMs: number,
    stamp: SenderStamp,
  ): Promise<string>;
  /** Answers a request another instance relayed here (see `ClusterHandlers.settingsRequested`). */
  answerSettings(deviceId: string, requestId: string, answer: SettingsAnswer): Promise<void>;
  /** Stops timers, fails waiting requests 503, releases this instance's leases and stops listening. */
  close(): Promise<void>;
}

/** One relay process alone: nothing to tell anyone, and no link anywhere but here. */
export function singleInstanceCluster(): RelayCluster {
  return {
    setHandlers: () => {},
    holdLink: () => ({ release: async () => {} }),
    linksHeldElsewhere: async () => new Set(),
    announceReply: async () => {},
    announceFleet: async () => {},
    relaySettings: () => Promise.reject(new RingbackError("computer_offline")),
    answerSettings: async () => {},
    close: async () => {},
  };
}
