import type { RelayedFleetState } from "@ringback/protocol";
import type { Clock } from "../clock.js";
import type { DeviceRecord, StreamEntry, StreamPage, StreamSnapshot } from "../store/store.js";
import { SSE_PENDING_MAX_BYTES, type SseCloseReason, SseConnection } from "./sse-connection.js";
import { deviceRemovedFrame, entryFrames, fleetFrame } from "./sse-frames.js";

/** Reads an account's stream after a seq (the store's `streamSince`). */
export type StreamReader = (accountId: string, afterSeq: number) => Promise<StreamSnapshot>;

/** Reads a page of an account's stream after a seq (the store's `streamPage`). */
export type StreamPageReader = (
  accountId: string,
  afterSeq: number,
  limit: number,
  maxBytes: number,
) => Promise<StreamPage>;

/**
 * Entries of a backlog read and written at once: a stream catching up on a long backlog holds one page in memory
 * and writes the next only once its client has taken the last.
 */
export const STREAM_PAGE_ENTRIES = 200;
/**
 * Sealed bytes of a backlog page at most (a page always takes its first call, so one of the largest, 1.5 MiB, is a
 * page of its own): a stalled stream holds one page, not 200 of the largest calls (300 MiB).
 */
export const STREAM_PAGE_MAX_BYTES = 1024 * 1024;
/**
 * Bytes the streams of one account on this instance may hold unread in all: past it, the account's stream holding the
 * most is dropped (its client resumes by `Last-Event-ID`; nothing leaves the store). Four stalled streams of one
 * account hold at most four backlog pages (about 1.6 MiB each with their frames) or four live bounds
 * (`SSE_PENDING_MAX_BYTES`, 2 MiB): 8 MiB, under it; the 32 streams an account may have would otherwise hold 64 MiB.
 * It leaves room for a burst of the largest calls to a handful of devices that read.
 */
export const SSE_ACCOUNT_PENDING_MAX_BYTES = 16 * 1024 * 1024;

/** What a connecting stream is sent before it goes live: its first page (read before the response starts), then more. */
export interface StreamBacklog {
  readonly first: StreamPage;
  /** The page after `afterSeq` (of the stream, or of the open calls). */
  next(afterSeq: number): Promise<StreamPage>;
  /** The account's current fleet states, sent after `synced`. */
  fleet(): Promise<readonly RelayedFleetState[]>;
}

/** The streams of one account on this instance, and how far they have been sent. */
interface AccountStreams {
  readonly accountId: string;
  readonly connections: Set<SseConnection>;
  /** Every entry up to this seq went to every joined stream; null until the first stream has joined. */
  cursor: number | null;
  /** Entries were announced before the first stream joined: read them once it has. */
  hasMissed: boolean;
  isReading: boolean;
  /** More was announced while reading: read again. */
  isStale: boolean;
  /** Entries for every joined stream, sent together once this turn of the event loop has published all it will. */
  outbox: StreamEntry[];
}

/** What the hub's streams hold and how many it dropped, for tests and the bench. */
export interface StreamHubStats {
  readonly streams: number;
  /** Bytes written to this instance's streams that their clients have not taken yet. */
  readonly pendingBytes: number;
  /** Those bytes stream by stream. */
  readonly pendingBytesByStream: readonly number[];
  /** The most of those the streams of one account hold together. */
  readonly largestAccountPendingBytes: number;
  /** Streams dropped because their client left more than the bound unread. */
  readonly droppedSlowReaders: number;
}

/**
 * The SSE streams open on this instance, by account and by device, fed in seq order. Entries committed here
 * come through `publish` and go out at once when they are the next seq; anything else (an entry committed by
 * another instance, announced through `entriesCommitted`, or a gap from writes finishing out of order) makes the
 * hub read the store after its cursor. Seqs of an account commit in order, so a read never skips one.
 *
 * Live entries are batched per account until the current turn of the event loop ends: each stream gets one socket
 * write per batch with frames serialised once for all of them, however many events committed together.
 */
export class StreamHub {
  readonly #byAccount = new Map<string, AccountStreams>();
  readonly #byDevice = new Map<string, Set<SseConnection>>();
  /** Open streams per client address (IPv6: /64), and each stream's address. */
  readonly #byAddress = new Map<string, Set<SseConnection>>();
  readonly #addressOf = new Map<SseConnection, string>();
  readonly #clock: Clock;
  readonly #read: StreamReader;
  readonly #readPage: StreamPageReader;
  readonly #onReadFailure: (error: unknown) => void;
  readonly #pendingMaxBytes: number;
  readonly #accountPendingMaxBytes: number;
  readonly #unsent = new Set<AccountStreams>();
  #isFlushScheduled = false;
  #droppedSlowReaders = 0;

  constructor(
    clock: Clock,
    read: StreamReader,
    onReadFailure: (error: unknown) => void = () => {},
    options: { pendingMaxBytes?: number; accountPendingMaxBytes?: number; readPage?: StreamPageReader } = {},
  ) {
    this.#clock = clock;
    this.#read = read;
    this.#readPage =
      options.readPage ??
      (async (accountId, afterSeq) => {
        const snapshot = await read(accountId, afterSeq);
        return { ...snapshot, throughSeq: snapshot.headSeq };
      });
    this.#onReadFailure = onReadFailure;
    this.#pendingMaxBytes = options.pendingMaxBytes ?? SSE_PENDING_MAX_BYTES;
    this.#accountPendingMaxBytes = options.accountPendingMaxBytes ?? SSE_ACCOUNT_PENDING_MAX_BYTES;
  }

  /** Registers a stream (from client `address`); entries are held back until it `join`s with its backlog. */
  open(device: DeviceRecord, address = "unknown"): SseConnection {
    const connection = new SseConnection(
      device,
      this.#clock,
      (closed, reason) => this.#forget(closed, reason),
      this.#pendingMaxBytes,
    );
    let account = this.#byAccount.get(device.accountId);
    if (!account) {
      account = {
        accountId: device.accountId,
        connections: new Set(),
        cursor: null,
        hasMissed: false,
        isReading: false,
        isStale: false,
        outbox: [],
      };
      this.#byAccount.set(device.accountId, account);
    }
    account.connections.add(connection);
    let devices = this.#byDevice.get(device.id);
    if (!devices) {
      devices = new Set();
      this.#byDevice.set(device.id, devices);
    }
    devices.add(connection);
    let fromAddress = this.#byAddress.get(address);
    if (!fromAddress) {
      fromAddress = new Set();
      this.#byAddress.set(address, fromAddress);
    }
    fromAddress.add(connection);
    this.#addressOf.set(connection, address);
    return connection;
  }

  /**
   * Sends the stream its backlog up to the head it was first read at, a page at a time, each once the client has
   * taken the last; then `synced`; then every current fleet state (live ones from then on); then, from the store too, what went out live meanwhile (up to the hub's cursor);
   * then, once the client has taken all that, the stream is live. Nothing of the backlog beyond the page being sent,
   * and nothing published while it is sent, is held in memory, and the account's streams stay within their bound.
   */
  async join(connection: SseConnection, backlog: StreamBacklog): Promise<void> {
    const account = this.#byAccount.get(connection.device.accountId);
    if (!account || connection.isClosed) return;
    const headSeq = backlog.first.headSeq;
    if (account.cursor === null) {
      account.cursor = headSeq;
      if (account.hasMissed) this.#catchUp(account);
    }
    let page = backlog.first;
    for (;;) {
      connection.sendBacklog(page.entries.filter((entry) => entry.seq <= headSeq));
      this.#keepWithinBound(account, connection);
      if (page.throughSeq >= headSeq || connection.isClosed) break;
      const after = page.throughSeq;
      await connection.drained();
      if (connection.isClosed) return;
      page = await backlog.next(after);
    }
    connection.sendSynced(headSeq);
    connection.goFleetLive();
    for (const state of await backlog.fleet()) connection.deliverFleet(fleetFrame(state));
    for (;;) {
      await connection.drained();
      if (connection.isClosed) return;
      if ((account.cursor ?? 0) <= connection.lastSeq) break;
      const after = connection.lastSeq;
      const more = await this.#readPage(account.accountId, after, STREAM_PAGE_ENTRIES, STREAM_PAGE_MAX_BYTES);
      connection.sendBacklog(more.entries, more.throughSeq);
      this.#keepWithinBound(account, connection);
      // A store behind the cursor (never expected) must not spin: what is missing comes live or by resuming.
      if (more.throughSeq <= after) break;
    }
    // Live from here, with nothing of the backlog left unread: the live bound applies to live bytes alone.
    connection.goLive();
  }

  /** Entries this instance just committed, in seq order per account. */
  publish(entries: readonly StreamEntry[]): void {
    for (const entry of entries) {
      const account = this.#byAccount.get(entry.accountId);
      if (!account) continue;
      if (account.cursor === null) {
        account.hasMissed = true;
      } else if (account.isReading) {
        account.isStale = true;
      } else if (entry.seq === account.cursor + 1) {
        account.cursor = entry.seq;
        this.#send(account, entry);
      } else if (entry.seq > account.cursor) {
        this.#catchUp(account);
      }
    }
  }

  /** A computer's fleet state, to every stream of its account here that takes them; the frame is built once. */
  publishFleet(accountId: string, state: RelayedFleetState): void {
    const account = this.#byAccount.get(accountId);
    if (!account) return;
    const frame = fleetFrame(state);
    for (const connection of [...account.connections]) connection.deliverFleet(frame);
    this.#keepWithinBound(account);
  }

  /** Whether the account has a stream here. */
  hasAccount(accountId: string): boolean {
    return this.#byAccount.has(accountId);
  }

  /** The accounts with a stream here. */
  accountIds(): string[] {
    return [...this.#byAccount.keys()];
  }

  /** Another instance (or this one's transaction) announced the account's stream up to `seq`. */
  entriesCommitted(accountId: string, seq: number): void {
    const account = this.#byAccount.get(accountId);
    if (!account) return;
    if (account.cursor === null) account.hasMissed = true;
    else if (seq > account.cursor) this.#catchUp(account);
  }

  /** Announcements may have been lost: read every account with streams here. */
  resync(): void {
    for (const account of this.#byAccount.values()) {
      if (account.cursor === null) account.hasMissed = true;
      else this.#catchUp(account);
    }
  }

  /**
   * Makes room for a new stream of `deviceId`: beyond `keep` open streams the oldest are closed. The newest wins, so
   * a device that reconnects after a network change is never locked out by its own half-open streams, and a stolen
   * token cannot hold more than `keep` streams.
   */
  makeRoomFor(deviceId: string, keep: number): number {
    const open = [...(this.#byDevice.get(deviceId) ?? [])];
    const surplus = open.slice(0, Math.max(0, open.length - keep + 1));
    for (const connection of surplus) connection.close();
    return surplus.length;
  }

  /**
   * Makes room for a new stream of the account: beyond `keep` open streams its oldest are closed. The newest wins here
   * too (the account's devices are one owner's), while the account's streams stay bounded however many devices it has.
   */
  makeRoomForAccount(accountId: string, keep: number): number {
    const open = [...(this.#byAccount.get(accountId)?.connections ?? [])];
    const surplus = open.slice(0, Math.max(0, open.length - keep + 1));
    for (const connection of surplus) connection.close();
    return surplus.length;
  }

  /** Open streams from a client address (IPv6: its /64). */
  streamsFrom(address: string): number {
    return this.#byAddress.get(address)?.size ?? 0;
  }

  isOnline(deviceId: string): boolean {
    return (this.#byDevice.get(deviceId)?.size ?? 0) > 0;
  }

  get connectionCount(): number {
    let count = 0;
    for (const account of this.#byAccount.values()) count += account.connections.size;
    return count;
  }

  stats(): StreamHubStats {
    const all = this.#all();
    const accounts = [...this.#byAccount.values()].map((account) => pendingOf(account.connections));
    return {
      streams: all.length,
      pendingBytes: pendingOf(all),
      pendingBytesByStream: all.map((connection) => connection.pendingBytes),
      largestAccountPendingBytes: Math.max(0, ...accounts),
      droppedSlowReaders: this.#droppedSlowReaders,
    };
  }

  /** Tells a removed device's streams why, then closes them. */
  closeDevice(deviceId: string): void {
    this.#flush();
    for (const connection of [...(this.#byDevice.get(deviceId) ?? [])]) {
      connection.write(deviceRemovedFrame(deviceId));
      connection.close();
    }
  }

  /**
   * Heartbeat to every stream; closes streams past their maximum duration (clients resume by seq) and streams
   * whose client stopped reading.
   */
  tick(options: { maxDurationMs: number; stallMs: number }): void {
    this.#flush();
    const now = this.#clock.now();
    for (const connection of this.#all()) {
      if (now - connection.openedAt >= options.maxDurationMs || connection.isStalled(now, options.stallMs)) {
        connection.close();
      } else {
        connection.heartbeat();
      }
    }
  }

  /** Closes every stream, after `farewell` (a `retry:` hint at shutdown) when given. */
  closeAll(farewell?: () => Uint8Array): void {
    this.#flush();
    for (const connection of this.#all()) {
      if (farewell) connection.write(farewell());
      connection.close();
    }
  }

  #all(): SseConnection[] {
    return [...this.#byAccount.values()].flatMap((account) => [...account.connections]);
  }

  /** Reads the store after the cursor until nothing more was announced meanwhile; one read at a time. */
  #catchUp(account: AccountStreams): void {
    if (account.isReading) {
      account.isStale = true;
      return;
    }
    account.isReading = true;
    const readMore = async (): Promise<void> => {
      do {
        account.isStale = false;
        const after = account.cursor ?? 0;
        const snapshot = await this.#read(account.accountId, after);
        if (this.#byAccount.get(account.accountId) !== account) return;
        for (const entry of snapshot.entries) {
          if (entry.seq <= (account.cursor ?? 0)) continue;
          this.#send(account, entry);
        }
        account.cursor = Math.max(account.cursor ?? 0, snapshot.headSeq);
      } while (account.isStale);
    };
    readMore()
      .catch((error: unknown) => {
        // Its streams cannot be fed in order now: closed, their clients resume by Last-Event-ID.
        this.#onReadFailure(error);
        for (const connection of [...account.connections]) connection.close();
      })
      .finally(() => {
        account.isReading = false;
      });
  }

  /** Queues a live entry for every joined stream of the account; the batch goes out two turns of the loop later. */
  #send(account: AccountStreams, entry: StreamEntry): void {
    account.outbox.push(entry);
    this.#unsent.add(account);
    if (this.#isFlushScheduled) return;
    this.#isFlushScheduled = true;
    // Two turns: the writes the store commits as a group in the next turn join this batch, so under load a stream
    // gets one socket write for the events of two turns (idle, a turn takes microseconds).
    setImmediate(() => setImmediate(() => this.#flush()));
  }

  #flush(): void {
    this.#isFlushScheduled = false;
    for (const account of this.#unsent) {
      const entries = account.outbox;
      account.outbox = [];
      let frames: Uint8Array | undefined;
      const batch = () => {
        frames ??= entryFrames(entries);
        return frames;
      };
      for (const connection of [...account.connections]) connection.deliver(entries, batch);
      this.#keepWithinBound(account);
    }
    this.#unsent.clear();
  }

  /**
   * Drops the account's streams that hold the most unread (never `writer`, whose client has taken all but the page just
   * written) until they hold no more than the account's bound together.
   */
  #keepWithinBound(account: AccountStreams, writer?: SseConnection): void {
    let pending = pendingOf(account.connections);
    while (pending > this.#accountPendingMaxBytes) {
      let fullest: SseConnection | undefined;
      for (const connection of account.connections) {
        if (connection === writer || connection.isClosed) continue;
        if (!fullest || connection.pendingBytes > fullest.pendingBytes) fullest = connection;
      }
      if (!fullest || fullest.pendingBytes === 0) return;
      pending -= fullest.pendingBytes;
      fullest.drop();
    }
  }

  #forget(connection: SseConnection, reason: SseCloseReason): void {
    if (reason === "slow-reader") this.#droppedSlowReaders++;
    const account = this.#byAccount.get(connection.device.accountId);
    if (account) {
      account.connections.delete(connection);
      if (account.connections.size === 0) this.#byAccount.delete(account.accountId);
    }
    const devices = this.#byDevice.get(connection.device.id);
    if (devices) {
      devices.delete(connection);
      if (devices.size === 0) this.#byDevice.delete(connection.device.id);
    }
    const address = this.#addressOf.get(connection);
    this.#addressOf.delete(connection);
    const fromAddress = address === undefined ? undefined : this.#byAddress.get(address);
    if (address !== undefined && fromAddress) {
      fromAddress.delete(connection);
      if (fromAddress.size === 0) this.#byAddress.delete(address);
    }
  }
}

/** Bytes written to `connections` that their clients have not taken yet. */
function pendingOf(connections: Iterable<SseConnection>): number {
  let pending = 0;
  for (const connection of connections) pending += connection.pendingBytes;
  return pending;
}
