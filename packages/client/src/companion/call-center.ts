import type {
  CallStatusChange,
  CallStatusWrite,
  DeviceDeliveryOutcome,
  IssueRefresh,
  RelayedEvent,
  ReplyStatusChange,
} from "@ringback/protocol";
import {
  pendingDeliveryReports,
  withAnswer,
  withDelivery,
  withDeliveryReport,
} from "../calls/call-deliveries.js";
import {
  type CallAction,
  type CallEffect,
  type CallsModel,
  EMPTY_CALLS_MODEL,
  reduceCalls,
} from "../calls/call-machine.js";
import {
  type CallRecord,
  type ReadingProblem,
  type ReplyDelivery,
  withStatus,
} from "../calls/call-record.js";
import { applyIssueRefresh, issueRefreshBatches } from "../calls/issue-refresh.js";
import { DeliveryReporter, type DeliveryReportOutcome } from "../controller/delivery-reporter.js";
import { Observable } from "../controller/observable.js";
import { type StatusWriteOutcome, StatusWriter } from "../controller/status-writer.js";
import { DaemonClient } from "../daemon/daemon-client.js";
import { CallStream, type StreamConnection } from "../relay/call-stream.js";
import { OpenCallError, type OpenCallProblem, openRelayedEvent } from "../relay/open-call.js";
import { RelayClient } from "../relay/relay-client.js";
import { deliveryFromStatus, laterDelivery, newReplyId, sealReply } from "../replies/reply.js";
import type { RingSchedule } from "../ring-schedule/ring-schedule.js";
import { PLATFORM_TIMERS, type TimerHandle, type Timers } from "../runtime/timers.js";
import { CallRecordsStore, loadAnsweredIds, saveAnsweredIds } from "../storage/call-records.js";
import type { KeyValueStore } from "../storage/key-value.js";
import { LocalSettings, type Pairing } from "../storage/local-settings.js";

/** How often the ring schedule is evaluated for "a non-ringing period begins before answer". */
export const SCHEDULE_CHECK_MS = 15_000;

/** A relayed call this device could not open: shown without content. */
export interface UnreadableCall {
  readonly eventId: string;
  readonly problem: OpenCallProblem;
}

/** The calls as a companion shows them. */
export interface CallCenterView {
  readonly calls: CallsModel;
  readonly connection: StreamConnection;
  readonly unreadable: readonly UnreadableCall[];
}

export interface CallCenterOptions {
  readonly store: KeyValueStore;
  /** The device's pairing, read when needed: its key may be replaced while the calls run. */
  readonly pairing: () => Pairing;
  /** The ring modes in effect, read at every step. */
  readonly schedule: () => RingSchedule;
  readonly fetch?: typeof fetch;
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
  /** Where a record that could not be saved is told (the console by default). */
  readonly logError?: (message: string, error: unknown) => void;
}

/**
 * A companion's calls, whatever shows them: loads the stored records, keeps the relay stream, runs the call
 * reducer (spec "Call lifecycle in the companion app") and its effects (status write-back, delivery reports,
 * preparation), persists records, and takes the user's answers, rejections, acknowledgements and replies. A UI
 * renders its view and follows `ringingCall(view.calls)`.
 */
export class CallCenter extends Observable<CallCenterView> {
  readonly #options: CallCenterOptions;
  readonly #settings: LocalSettings;
  readonly #records: CallRecordsStore;
  readonly #timers: Timers;
  #stream: CallStream | null = null;
  #writer: StatusWriter | null = null;
  #reporter: DeliveryReporter | null = null;
  #scheduleTimer: TimerHandle | undefined;
  #persisting: Promise<void> = Promise.resolve();
  #lastEventId: string | null = null;
  #isStopped = false;

  constructor(options: CallCenterOptions) {
    super({ calls: EMPTY_CALLS_MODEL, connection: "connecting", unreadable: [] });
    this.#options = options;
    this.#settings = new LocalSettings(options.store);
    this.#records = new CallRecordsStore(options.store);
    this.#timers = options.timers ?? PLATFORM_TIMERS;
  }

  /** Reads the stored calls; nothing rings yet. */
  async load(): Promise<void> {
    const [records, answeredIds, lastEventId] = await Promise.all([
      this.#records.loadAll(),
      loadAnsweredIds(this.#options.store),
      this.#settings.loadLastEventId(),
    ]);
    this.#lastEventId = lastEventId;
    this.update({
      calls: { records: Object.fromEntries(records.map((record) => [record.eventId, record])), answeredIds },
    });
  }

  /** Applies the restart rules to the loaded calls, then subscribes to the relay (resuming with Last-Event-ID). */
  connect(): void {
    this.#dispatch({ type: "restored" });
    const client = this.relay();
    this.#writer = new StatusWriter(
      (eventId, status) => client.writeCallStatus(eventId, status),
      (eventId, status, outcome) => this.#onStatusWritten(eventId, status, outcome),
      undefined,
      this.#timers,
    );
    this.#reporter = new DeliveryReporter(
      (eventId, outcome) => client.reportDelivery(eventId, outcome),
      (eventId, outcome, result) => this.#onDeliveryReported(eventId, outcome, result),
      undefined,
      this.#timers,
    );
    const { identity } = this.#options.pairing();
    this.#stream = new CallStream({
      serverUrl: identity.serverUrl,
      deviceToken: identity.deviceToken,
      lastEventId: this.#lastEventId,
      fetch: this.#options.fetch,
      timers: this.#timers,
      handlers: {
        onCall: (event) => this.#onCall(event),
        onReplyStatus: (change) => this.#onReplyStatus(change),
        onCallStatus: (change) => this.#onCallStatus(change),
        onCallDelivery: (delivery) =>
          this.#changeStatus(delivery.eventId, (record) => withDelivery(record, delivery, this.#deviceId)),
        onSynced: ({ resumedFrom, backlogEventIds }) => {
          // Without a resume id the relay sent every call still open: any other open call here ended elsewhere.
          if (resumedFrom === null) this.#dispatch({ type: "pending-calls", eventIds: backlogEventIds });
        },
        onLastEventId: (id) => this.#settings.saveLastEventId(id),
        onConnection: (connection) => {
          this.update({ connection });
          if (connection !== "open") return;
          this.#writer?.flush().catch(() => undefined);
          this.#reportPendingDeliveries();
        },
        onDeviceRemoved: () => this.#options.onDeviceRemoved(),
      },
    });
    this.#stream.start();
    // "A non-ringing period begins before answer": checked often enough that a ringing call stops near the minute.
    this.#scheduleTimer = this.#timers.setInterval(() => this.checkSchedule(), SCHEDULE_CHECK_MS);
  }

  stop(): void {
    this.#isStopped = true;
    this.#stream?.close();
    this.#writer?.stop();
    this.#reporter?.stop();
    this.#timers.clearInterval(this.#scheduleTimer);
  }

  /** Settles when every record change so far is stored. */
  persisted(): Promise<void> {
    return this.#persisting;
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

  answer(eventId: string): void {
    this.#dispatch({ type: "answer", eventId });
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
    const replyId = newReplyId();
    const request = await sealReply(this.#options.pairing().key, eventId, replyId, text);
    const accepted = await this.relay().sendReply(eventId, request);
    const sentAt = this.#now().toISOString();
    const current = this.view.calls.records[eventId] ?? record;
    this.changeContent(eventId, { replies: [...current.replies, { replyId, text, sentAt }] });
    this.#setDelivery(eventId, replyId, { status: accepted.status, reason: null, at: sentAt });
    await this.#persisting;
  }

  /** What the user said about a call: merged into the stored record's content, its status left as stored. */
  changeContent(
    eventId: string,
    change: Partial<Pick<CallRecord, "conversation" | "decisions" | "replies">>,
  ): void {
    const record = this.view.calls.records[eventId];
    if (!record) return;
    this.update({
      calls: {
        ...this.view.calls,
        records: { ...this.view.calls.records, [eventId]: { ...record, ...change } },
      },
    });
    this.#afterSaving(async () => {
      const { evicted } = await this.#records.saveContent(eventId, change);
      if (evicted.length > 0) this.#forget(evicted);
    });
  }

  /**
   * The current priority, update time and project of the calls' tracker issues, asked of the computer that
   * reported them (`POST /tracker/issues` relayed). A computer that is offline or not set up for the tracker leaves
   * its calls as they were.
   */
  async refreshIssues(): Promise<void> {
    const pairing = this.#options.pairing();
    const byComputer = new Map<string, CallRecord[]>();
    for (const record of Object.values(this.view.calls.records)) {
      if (!record.issue || !record.fromDeviceId) continue;
      byComputer.set(record.fromDeviceId, [...(byComputer.get(record.fromDeviceId) ?? []), record]);
    }
    const refreshes: IssueRefresh[] = [];
    for (const [computerId, records] of byComputer) {
      const daemon = new DaemonClient(this.relay(), pairing.key, computerId);
      try {
        for (const issues of issueRefreshBatches(records))
          refreshes.push(...(await daemon.refreshIssues(issues)).issues);
      } catch {
        // Offline, timed out, not set up or another key: the calls keep the values they have.
      }
    }
    if (refreshes.length === 0) return;
    const records = { ...this.view.calls.records };
    const changed: CallRecord[] = [];
    for (const record of Object.values(records)) {
      const refreshed = applyIssueRefresh(record, refreshes);
      if (refreshed === record) continue;
      records[record.eventId] = refreshed;
      changed.push(refreshed);
    }
    this.update({ calls: { ...this.view.calls, records } });
    this.#afterSaving(async () => {
      for (const record of changed) await this.#records.save(record);
    });
  }

  get #deviceId(): string {
    return this.#options.pairing().identity.deviceId;
  }

  #now(): Date {
    return this.#options.now?.() ?? new Date();
  }

  async #onCall(event: RelayedEvent): Promise<void> {
    let payload = this.view.calls.records[event.eventId]?.payload;
    if (!payload) {
      try {
        // The key now, not at connect time: it may have been replaced since.
        payload = await openRelayedEvent(this.#options.pairing().key, event);
      } catch (error) {
        if (!(error instanceof OpenCallError)) throw error;
        const unreadable = this.view.unreadable.filter((call) => call.eventId !== event.eventId);
        this.update({ unreadable: [...unreadable, { eventId: event.eventId, problem: error.problem }] });
        return;
      }
    }
    const routing = {
      eventId: event.eventId,
      source: event.source,
      occurredAt: event.occurredAt,
      fromDeviceId: event.fromDeviceId,
    };
    this.#dispatch({ type: "report-received", routing, payload });
    // A replayed call that was already answered, rejected or acknowledged elsewhere: the relay does not say by
    // which device; the reducer takes an answer this device remembers as its own.
    if (event.status !== "pending") {
      this.#dispatch({ type: "remote-status", eventId: event.eventId, status: event.status, deviceId: null });
      this.#options.onSettled?.(event.eventId);
    }
  }

  #onCallStatus(change: CallStatusChange): void {
    this.#dispatch({
      type: "remote-status",
      eventId: change.eventId,
      status: change.status,
      deviceId: change.deviceId,
    });
    // Who answered, for the history's delivery line (own answers too: the relay's time is the one all devices see).
    this.#changeStatus(change.eventId, (record) => withAnswer(record, change));
    this.#options.onSettled?.(change.eventId);
  }

  async #onReplyStatus(change: ReplyStatusChange): Promise<void> {
    if (!this.view.calls.records[change.eventId]) return;
    const delivery = await deliveryFromStatus(this.#options.pairing().key, change);
    this.#setDelivery(change.eventId, change.replyId, delivery);
  }

  /** A reply's delivery status: merged only into the call's status fields. */
  #setDelivery(eventId: string, replyId: string, delivery: ReplyDelivery): void {
    this.#changeStatus(eventId, (record) =>
      withStatus(record, {
        replyDeliveries: {
          ...record.status.replyDeliveries,
          [replyId]: laterDelivery(record.status.replyDeliveries[replyId], delivery),
        },
      }),
    );
  }

  /** A change of a call's status fields outside the reducer; a call this device has no record of is left alone. */
  #changeStatus(eventId: string, change: (record: CallRecord) => CallRecord): void {
    const record = this.view.calls.records[eventId];
    if (!record) return;
    const updated = change(record);
    if (updated === record) return;
    const before = this.view.calls;
    const calls = { ...before, records: { ...before.records, [eventId]: updated } };
    this.#persist(before, calls);
    this.update({ calls });
  }

  /** Outcomes this device has not got to the relay yet (offline, or before a restart) are sent on every connect. */
  #reportPendingDeliveries(): void {
    const reports = Object.values(this.view.calls.records).flatMap((record) =>
      pendingDeliveryReports(record).map((outcome) => ({ eventId: record.eventId, outcome })),
    );
    if (reports.length > 0) this.#reporter?.reportAll(reports).catch(() => undefined);
  }

  #onDeliveryReported(eventId: string, outcome: DeviceDeliveryOutcome, result: DeliveryReportOutcome): void {
    if (result.kind === "device-removed") {
      this.#options.onDeviceRemoved();
      return;
    }
    this.#changeStatus(eventId, (record) =>
      result.kind === "reported"
        ? withDeliveryReport(withDelivery(record, result.delivery, this.#deviceId), outcome, "reported")
        : withDeliveryReport(record, outcome, "abandoned"),
    );
  }

  #onStatusWritten(eventId: string, status: CallStatusWrite, outcome: StatusWriteOutcome): void {
    if (outcome.kind === "device-removed") {
      this.#options.onDeviceRemoved();
      return;
    }
    if (status !== "answered") return;
    if (outcome.kind === "answered-elsewhere") {
      this.#dispatch({ type: "answer-lost", eventId, status: "answered" });
    } else if (outcome.kind === "written" && !outcome.result.won && outcome.result.status !== "pending") {
      this.#dispatch({ type: "answer-lost", eventId, status: outcome.result.status });
    }
  }

  #dispatch(action: CallAction): void {
    if (this.#isStopped) return;
    const before = this.view.calls;
    const transition = reduceCalls(before, action, {
      now: this.#now(),
      schedule: this.#options.schedule(),
      deviceId: this.#deviceId,
    });
    if (transition.model === before) return;
    this.#persist(before, transition.model);
    this.update({ calls: transition.model });
    for (const effect of transition.effects) this.#run(effect);
    this.#options.onStep?.();
  }

  #run(effect: CallEffect): void {
    switch (effect.type) {
      case "prepare-voice":
        this.#prepare(effect.eventId).catch(() => undefined);
        return;
      case "write-status":
        this.#writer?.enqueue(effect.eventId, effect.status).catch(() => undefined);
        return;
      case "report-delivery":
        this.#reporter?.report(effect.eventId, effect.outcome).catch(() => undefined);
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

  #persist(before: CallsModel, after: CallsModel): void {
    const changed = Object.values(after.records).filter(
      (record) => before.records[record.eventId] !== record,
    );
    const isAnsweredChanged = before.answeredIds !== after.answeredIds;
    this.#afterSaving(async () => {
      for (const record of changed) {
        // The reducer changes only status fields: an existing record merges them into what is stored, so nothing
        // another context of this device wrote meanwhile (conversation, replies) is lost.
        const { evicted } = before.records[record.eventId]
          ? await this.#records.saveLaterStatus(record)
          : await this.#records.save(record);
        if (evicted.length > 0) this.#forget(evicted);
      }
      if (isAnsweredChanged) await saveAnsweredIds(this.#options.store, after.answeredIds);
    });
  }

  #afterSaving(save: () => Promise<void>): void {
    const logError = this.#options.logError ?? ((message, error) => console.error(message, error));
    this.#persisting = this.#persisting
      .then(save)
      .catch((error: unknown) => logError("Could not save call records.", error));
  }

  /** Records deleted to make room leave memory too (never the ringing or active call: they are the newest). */
  #forget(eventIds: readonly string[]): void {
    const records = { ...this.view.calls.records };
    for (const eventId of eventIds) delete records[eventId];
    this.update({ calls: { ...this.view.calls, records } });
  }
}
