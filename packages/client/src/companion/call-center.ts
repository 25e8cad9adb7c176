import type { PermissionVerdict, RelayedFleetState } from "@ringback/protocol";
import {
  type CallAction,
  type CallEffect,
  type CallEnvironment,
  type CallLifecycleAction,
  type CallsModel,
  EMPTY_CALLS_MODEL,
  reduceCalls,
} from "../calls/call-machine.js";
import type { CallRecord, ReadingProblem } from "../calls/call-record.js";
import type { CallContent, CallRecordChange } from "../calls/call-record-changes.js";
import { DecisionError, decisionProblem, isNeedsYou, needsYouAsk } from "../calls/needs-you.js";
import { isTestCall, TEST_CALL_PREFIX, type TestCallWords, testCallPayload } from "../calls/test-call.js";
import { Observable } from "../controller/observable.js";
import { DaemonClient } from "../daemon/daemon-client.js";
import type { StreamConnection } from "../relay/call-stream.js";
import { RelayClient } from "../relay/relay-client.js";
import { RelayReach } from "../relay/relay-reach.js";
import { sealPermissionDecision } from "../replies/permission-decision.js";
import { newReplyId, sealReply } from "../replies/reply.js";
import type { RingSchedule } from "../ring-schedule/ring-schedule.js";
import { PLATFORM_TIMERS, type TimerHandle, type Timers } from "../runtime/timers.js";
import type { KeyValueStore } from "../storage/key-value.js";
import { LocalSettings, type Pairing } from "../storage/local-settings.js";
import { CallPersistence } from "./call-persistence.js";
import { CallRelayLink, type UnreadableCall } from "./call-relay-link.js";
import { askIssueRefreshes } from "./issue-refreshes.js";

export type { UnreadableCall } from "./call-relay-link.js";

/** How often the ring schedule is evaluated for "a non-ringing period begins before answer". */
export const SCHEDULE_CHECK_MS = 15_000;

/** The calls as a companion shows them. */
export interface CallCenterView {
  readonly calls: CallsModel;
  readonly connection: StreamConnection;
  /**
   * The relay has been out of reach since this time (ISO; the first failed attempt): said at once when it was not
   * reached since `connect()`, after `RELAY_UNREACHABLE_AFTER_MS` once it was; null while it is reached.
   */
  readonly relayUnreachableSince: string | null;
  readonly unreadable: readonly UnreadableCall[];
}

export interface CallCenterOptions {
  readonly store: KeyValueStore;
  /** The device's pairing, read when needed: its key may be replaced while the calls run. */
  readonly pairing: () => Pairing;
  /** The ring modes in effect, read at every step. */
  readonly schedule: () => RingSchedule;
  readonly fetch?: typeof fetch;
  /** The time for the call lifecycle and for how long the relay has been out of reach. */
  readonly now?: () => Date;
  readonly timers?: Timers;
  /**
   * What a call needs before it rings (a browser prepares its voice): null when ready, else why it cannot be read
   * aloud (the call still rings, with the text). Without it a call is ready as soon as it arrives.
   */
  readonly prepare?: (record: CallRecord) => Promise<ReadingProblem | null>;
  /** After every step of the lifecycle: ringing may have started or stopped. */
  readonly onStep?: () => void;
  /** The call was answered, rejected, acknowledged, ended or expired, here or on another device. */
  readonly onSettled?: (eventId: string) => void;
  /** 401, or the relay said the device is removed: the stream is closed for good. */
  readonly onDeviceRemoved: () => void;
  /** A computer's sealed fleet state arrived on the stream (see `FleetWatch`). */
  readonly onFleet?: (state: RelayedFleetState) => void | Promise<void>;
  /** Follows the account's key rotations; true when this device's key changed (see `CallRelayLink`). */
  readonly catchUpKey?: () => Promise<boolean>;
  /** Where a record that could not be saved is told (the console by default). */
  readonly logError?: (message: string, error: unknown) => void;
}

/**
 * A companion's calls, whatever shows them: loads the stored records, keeps the relay stream, runs the call
 * reducer (spec "Call lifecycle in the companion app") and its effects (status write-back, delivery reports,
 * preparation), persists records, and takes the user's answers, rejections, acknowledgements and replies. A UI
 * renders its view and follows `ringingCall(view.calls)`. Every change of a call record is an action of the reducer.
 */
export class CallCenter extends Observable<CallCenterView> {
  readonly #options: CallCenterOptions;
  readonly #settings: LocalSettings;
  readonly #persistence: CallPersistence;
  readonly #timers: Timers;
  #link: CallRelayLink | null = null;
  #reach: RelayReach | null = null;
  #scheduleTimer: TimerHandle | undefined;
  #lastEventId: string | null = null;
  #isStopped = false;

  constructor(options: CallCenterOptions) {
    super({
      calls: EMPTY_CALLS_MODEL,
      connection: "connecting",
      relayUnreachableSince: null,
      unreadable: [],
    });
    this.#options = options;
    this.#settings = new LocalSettings(options.store);
    this.#persistence = new CallPersistence(
      options.store,
      (eventIds) => this.#change({ type: "records-evicted", eventIds }),
      options.logError,
    );
    this.#timers = options.timers ?? PLATFORM_TIMERS;
  }

  /** Reads the stored calls; nothing rings yet. */
  async load(): Promise<void> {
    const [calls, lastEventId] = await Promise.all([
      this.#persistence.load(),
      this.#settings.loadLastEventId(),
    ]);
    this.#lastEventId = lastEventId;
    // The model the reducer starts from: the records as stored, nothing changed.
    this.update({ calls });
  }

  /** Applies the restart rules to the loaded calls, then subscribes to the relay (resuming with Last-Event-ID). */
  connect(): void {
    this.#dispatch({ type: "restored" });
    const reach = new RelayReach({
      clock: { now: () => (this.#options.now?.() ?? new Date()).getTime() },
      timers: this.#timers,
      onChange: (since) =>
        this.update({ relayUnreachableSince: since === null ? null : new Date(since).toISOString() }),
    });
    this.#reach = reach;
    this.#link = new CallRelayLink({
      pairing: this.#options.pairing,
      relay: this.relay(),
      fetch: this.#options.fetch,
      timers: this.#timers,
      lastEventId: this.#lastEventId,
      saveLastEventId: (id) => this.#settings.saveLastEventId(id),
      calls: () => this.view.calls,
      dispatch: (action) => this.#dispatch(action),
      change: (change) => this.#change(change),
      onUnreadable: (call) => {
        const others = this.view.unreadable.filter((other) => other.eventId !== call.eventId);
        this.update({ unreadable: [...others, call] });
      },
      onConnection: (connection) => {
        this.update({ connection });
        reach.connection(connection);
      },
      onSettled: (eventId) => this.#options.onSettled?.(eventId),
      onFleet: (state) => this.#options.onFleet?.(state),
      onDeviceRemoved: () => this.#options.onDeviceRemoved(),
      catchUpKey: this.#options.catchUpKey,
    });
    this.#link.start();
    // "A non-ringing period begins before answer": checked often enough that a ringing call stops near the minute.
    this.#scheduleTimer = this.#timers.setInterval(() => this.checkSchedule(), SCHEDULE_CHECK_MS);
  }

  stop(): void {
    this.#isStopped = true;
    this.#link?.stop();
    this.#reach?.stop();
    this.#timers.clearInterval(this.#scheduleTimer);
  }

  /** Settles when every record change so far is stored. */
  persisted(): Promise<void> {
    return this.#persistence.persisted();
  }

  /** This device's id in the account (who answered or decided a call is told by it). */
  get deviceId(): string {
    return this.#options.pairing().identity.deviceId;
  }

  /** The relay as this device: its own address and token. */
  relay(): RelayClient {
    const { identity } = this.#options.pairing();
    return new RelayClient({
      serverUrl: identity.serverUrl,
      deviceToken: identity.deviceToken,
      fetch: this.#options.fetch,
    });
  }

  /**
   * Rings this device at once with a test call made here (its words in `words`): how a person hears a first call
   * before any agent has finished. The relay never hears of it; its id says so (`isTestCall`).
   */
  ringTestCall(words: TestCallWords, language: string): string {
    const now = this.#environment().now;
    const eventId = `${TEST_CALL_PREFIX}${now.getTime()}`;
    const payload = testCallPayload(eventId, now, words, language);
    const routing = {
      eventId,
      source: payload.report.source,
      occurredAt: payload.report.occurredAt,
      fromDeviceId: null,
    };
    this.#dispatch({ type: "report-received", routing, payload });
    return eventId;
  }

  answer(eventId: string): void {
    this.#dispatch({ type: "answer", eventId });
  }

  /**
   * A round-up moves on: the call in progress is left heard or skipped, and `nextEventId` (any waiting or missed
   * call) is answered at once; null at the round-up's end.
   */
  roundUpStep(leave: "heard" | "skipped", nextEventId: string | null): void {
    this.#dispatch({ type: "round-up-step", leave, nextEventId });
  }

  /** Hang-up in a round-up: the call in progress ends, and `laterEventIds` (not reached) wait among the missed. */
  roundUpHangUp(laterEventIds: readonly string[]): void {
    this.#dispatch({ type: "round-up-hang-up", laterEventIds });
  }

  reject(eventId: string): void {
    this.#dispatch({ type: "reject", eventId });
  }

  hangUp(eventId: string): void {
    this.#dispatch({ type: "hang-up", eventId });
  }

  /** "Later": the call stops ringing here and waits among the missed calls. */
  setAside(eventId: string): void {
    this.#dispatch({ type: "set-aside", eventId });
  }

  /** The ringing call is on screen (the "shown" delivery outcome). */
  ringShown(eventId: string): void {
    this.#dispatch({ type: "ring-shown", eventId });
  }

  retry(eventId: string): void {
    this.#dispatch({ type: "retry", eventId });
  }

  ignore(eventId: string): void {
    this.#dispatch({ type: "ignore", eventId });
  }

  /** Acknowledge-all: these missed calls are acknowledged at once, and every device stops showing them. */
  acknowledgeAll(eventIds: readonly string[]): void {
    this.#dispatch({ type: "acknowledge-all", eventIds });
  }

  /** The ring modes changed: a call that may no longer ring stops now. */
  checkSchedule(): void {
    this.#dispatch({ type: "schedule-check" });
  }

  /**
   * A reply after hang-up: sealed for the computer that reported the call and sent through the relay; its delivery
   * status then arrives on the stream.
   */
  async sendReply(eventId: string, text: string): Promise<void> {
    const record = this.view.calls.records[eventId];
    if (!record) throw new Error("This call is no longer on this device.");
    const computerId = record.fromDeviceId;
    if (!computerId) throw new Error("This device does not know which computer reported this call.");
    // Its agent waits for a decision; the computer would refuse words sent as one.
    if (isNeedsYou(record))
      throw new Error("This call asks for a decision (allow once or deny), not a reply.");
    const replyId = newReplyId();
    const request = await sealReply(this.#options.pairing().key, { computerId, eventId, replyId, text });
    const accepted = await this.relay().sendReply(eventId, request);
    this.#change({ type: "reply-sent", eventId, replyId, text, status: accepted.status });
    await this.persisted();
  }

  /**
   * Allow once, or Deny (with an optional reason for the agent), on the "needs you" call in progress here. The answer
   * is written first (the first device to answer wins at the relay, and a lost answer ends the call here), then the
   * decision is sealed for the computer that raised the call, bound to the ask (its event and tool input digest), and
   * sent as a reply; whether the agent got it arrives on the stream as the reply's status. Rejects with a
   * `DecisionError` when it cannot be sent now.
   */
  async decide(eventId: string, verdict: PermissionVerdict, reason: string | null = null): Promise<void> {
    const now = () => this.#options.now?.() ?? new Date();
    const check = () => {
      const record = this.view.calls.records[eventId];
      const problem = decisionProblem(record, now());
      if (problem !== null) throw new DecisionError(problem);
      return record as CallRecord;
    };
    check();
    // The answer's write goes out once the answer is stored; the decision only after the relay has had it.
    await this.persisted();
    await this.#link?.flushStatusWrites();
    const record = check();
    const ask = needsYouAsk(record);
    if (!ask || record.fromDeviceId === null) throw new DecisionError("not-needs-you");
    const replyId = newReplyId();
    const { key, identity } = this.#options.pairing();
    const request = await sealPermissionDecision(
      key,
      {
        computerId: record.fromDeviceId,
        eventId,
        replyId,
        toolInputDigest: ask.toolInputDigest,
        verdict,
        reason,
        ...(identity.deviceName ? { deviceName: identity.deviceName } : {}),
      },
      now(),
    );
    const accepted = await this.relay().sendReply(eventId, request);
    const kept = verdict === "deny" ? reason?.trim() || null : null;
    this.#change({
      type: "verdict-sent",
      eventId,
      verdict: { replyId, verdict, reason: kept },
      status: accepted.status,
    });
    await this.persisted();
  }

  /**
   * What the user said about a call: merged into the stored record's content, its status left as stored; settles
   * when it is stored.
   */
  changeContent(eventId: string, change: Partial<CallContent>): Promise<void> {
    this.#change({ type: "content-changed", eventId, change });
    return this.persisted();
  }

  /**
   * The current priority, update time and project of the calls' tracker issues, asked of the computer that
   * reported them (`POST /tracker/issues` relayed). A computer that is offline or not set up for the tracker leaves
   * its calls as they were.
   */
  async refreshIssues(): Promise<void> {
    const { key } = this.#options.pairing();
    const refreshes = await askIssueRefreshes(
      Object.values(this.view.calls.records),
      (computerId) => new DaemonClient(this.relay(), key, computerId),
    );
    if (refreshes.length > 0) this.#change({ type: "issues-refreshed", refreshes });
  }

  /** A step of the lifecycle: none once stopped; ringing may start or stop after it. */
  #dispatch(action: CallLifecycleAction): void {
    if (this.#isStopped) return;
    if (this.#apply(action)) this.#options.onStep?.();
  }

  /** A change of what a record says, no lifecycle step: kept after stop too (a reply the relay took meanwhile). */
  #change(change: CallRecordChange): void {
    this.#apply(change);
  }

  /** Runs the reducer: stores and shows what changed and runs its effects; false when nothing changed. */
  #apply(action: CallAction): boolean {
    const before = this.view.calls;
    const transition = reduceCalls(before, action, this.#environment());
    if (transition.model === before) return false;
    this.#persistence.save(action, before, transition.model);
    const stored = this.#persistence.persisted();
    this.update({ calls: transition.model });
    for (const effect of transition.effects) this.#run(effect, stored);
    return true;
  }

  /** What the reducer reads; who this device is only when an action needs it (a note kept after removal does not). */
  #environment(): CallEnvironment {
    const { pairing, schedule, now } = this.#options;
    return {
      now: now?.() ?? new Date(),
      schedule: schedule(),
      get deviceId() {
        return pairing().identity.deviceId;
      },
      get joinedAt() {
        return pairing().identity.joinedAt ?? null;
      },
    };
  }

  /**
   * The relay hears of a step only once the step is stored (`stored`): a page closed after the relay took (or
   * refused) "shown" but before the record said so would ring the call again on reload, and lose the report.
   */
  #run(effect: CallEffect, stored: Promise<void>): void {
    switch (effect.type) {
      case "prepare-voice":
        this.#prepare(effect.eventId).catch(() => undefined);
        return;
      case "write-status":
        if (isTestCall(effect.eventId)) return;
        void stored.then(() => this.#link?.writeStatus(effect.eventId, effect.status));
        return;
      case "report-delivery":
        if (isTestCall(effect.eventId)) return;
        void stored.then(() => this.#link?.reportDelivery(effect.eventId, effect.outcome));
        return;
    }
  }

  async #prepare(eventId: string): Promise<void> {
    const record = this.view.calls.records[eventId];
    if (!record) return;
    const problem = this.#options.prepare ? await this.#options.prepare(record) : null;
    this.#dispatch(
      problem === null
        ? { type: "voice-ready", eventId }
        : { type: "voice-failed", eventId, reason: problem },
    );
  }
}
