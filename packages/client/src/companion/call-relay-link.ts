import type {
  CallStatusChange,
  CallStatusWrite,
  DeviceDeliveryOutcome,
  RelayedEvent,
  RelayedFleetState,
  ReplyStatusChange,
} from "@ringback/protocol";
import { pendingDeliveryReports } from "../calls/call-deliveries.js";
import type { CallLifecycleAction, CallsModel } from "../calls/call-machine.js";
import type { CallRecordChange } from "../calls/call-record-changes.js";
import { DeliveryReporter, type DeliveryReportOutcome } from "../controller/delivery-reporter.js";
import { type StatusWriteOutcome, StatusWriter } from "../controller/status-writer.js";
import { readDelivery } from "../devices/device-list.js";
import { CallStream, type StreamConnection } from "../relay/call-stream.js";
import { OpenCallError, type OpenCallProblem, openRelayedEvent } from "../relay/open-call.js";
import type { RelayClient } from "../relay/relay-client.js";
import { deliveryFromStatus } from "../replies/reply.js";
import type { Timers } from "../runtime/timers.js";
import type { Pairing } from "../storage/local-settings.js";

/** A relayed call this device could not open: shown without content. */
export interface UnreadableCall {
  readonly eventId: string;
  readonly problem: OpenCallProblem;
}

export interface CallRelayLinkOptions {
  /** The device's pairing, read when needed: its key may be replaced while the calls run. */
  readonly pairing: () => Pairing;
  /** The relay as this device, for status writes and delivery reports. */
  readonly relay: RelayClient;
  readonly fetch?: typeof fetch;
  readonly timers: Timers;
  /** Where the stream resumes (null: the relay sends every call still open). */
  readonly lastEventId: string | null;
  readonly saveLastEventId: (id: string) => Promise<void>;
  /** The calls as they are now. */
  readonly calls: () => CallsModel;
  /** A step of the call lifecycle. */
  readonly dispatch: (action: CallLifecycleAction) => void;
  /** A change of what a record says. */
  readonly change: (change: CallRecordChange) => void;
  readonly onUnreadable: (call: UnreadableCall) => void;
  readonly onConnection: (connection: StreamConnection) => void;
  /** The call was answered, rejected, acknowledged, ended or expired, here or on another device. */
  readonly onSettled?: (eventId: string) => void;
  /** A computer's sealed fleet state arrived (handled in stream order: the next event waits for its promise). */
  readonly onFleet?: (state: RelayedFleetState) => void | Promise<void>;
  /** 401, or the relay said the device is removed. */
  readonly onDeviceRemoved: () => void;
  /**
   * Follows the account's key rotations (`KeyRotator.catchUp`); true when this device's key changed. Run at every
   * connect, and when a call is sealed under a key this device does not hold (its computer moved first).
   */
  readonly catchUpKey?: () => Promise<boolean>;
}

/**
 * The calls' link to the relay: the event stream (resumed with Last-Event-ID) turned into reducer actions, and the
 * status writes and delivery reports the reducer asks for, retried in the background and sent again on reconnect.
 */
export class CallRelayLink {
  readonly #options: CallRelayLinkOptions;
  readonly #writer: StatusWriter;
  readonly #reporter: DeliveryReporter;
  readonly #stream: CallStream;

  constructor(options: CallRelayLinkOptions) {
    this.#options = options;
    const { relay, timers } = options;
    this.#writer = new StatusWriter(
      (eventId, status) => relay.writeCallStatus(eventId, status),
      (eventId, status, outcome) => this.#onStatusWritten(eventId, status, outcome),
      undefined,
      timers,
    );
    this.#reporter = new DeliveryReporter(
      // The relay answers with this device's own record: its name sealed, read with the key now.
      async (eventId, outcome) =>
        readDelivery(options.pairing().key, await relay.reportDelivery(eventId, outcome)),
      (eventId, outcome, result) => this.#onDeliveryReported(eventId, outcome, result),
      undefined,
      timers,
    );
    const { identity } = options.pairing();
    this.#stream = new CallStream({
      serverUrl: identity.serverUrl,
      deviceToken: identity.deviceToken,
      lastEventId: options.lastEventId,
      fetch: options.fetch,
      timers,
      handlers: {
        onCall: (event) => this.#onCall(event),
        onReplyStatus: (change) => this.#onReplyStatus(change),
        onFleet: (state) => options.onFleet?.(state),
        onCallStatus: (change) => this.#onCallStatus(change),
        // The device's name is sealed: read with the key now (it may have been replaced since the connect).
        onCallDelivery: async (delivery) =>
          options.change({
            type: "delivery-received",
            delivery: await readDelivery(options.pairing().key, delivery),
          }),
        onSynced: ({ resumedFrom, backlogEventIds }) => {
          // Without a resume id the relay sent every call still open: any other open call here ended elsewhere.
          if (resumedFrom === null) options.dispatch({ type: "pending-calls", eventIds: backlogEventIds });
        },
        onLastEventId: (id) => options.saveLastEventId(id),
        onConnection: (connection) => {
          options.onConnection(connection);
          if (connection !== "open") return;
          options.catchUpKey?.().catch(() => undefined);
          this.#writer.flush().catch(() => undefined);
          this.#reportPendingDeliveries();
        },
        onDeviceRemoved: () => options.onDeviceRemoved(),
      },
    });
  }

  start(): void {
    this.#stream.start();
  }

  stop(): void {
    this.#stream.close();
    this.#writer.stop();
    this.#reporter.stop();
  }

  /** The reducer's `write-status` effect. */
  writeStatus(eventId: string, status: CallStatusWrite): void {
    this.#writer.enqueue(eventId, status).catch(() => undefined);
  }

  /** Settles once every status write queued so far was tried (an answer lost to another device is then known). */
  flushStatusWrites(): Promise<void> {
    return this.#writer.flush().catch(() => undefined);
  }

  /** The reducer's `report-delivery` effect. */
  reportDelivery(eventId: string, outcome: DeviceDeliveryOutcome): void {
    this.#reporter.report(eventId, outcome).catch(() => undefined);
  }

  async #onCall(event: RelayedEvent): Promise<void> {
    let payload = this.#options.calls().records[event.eventId]?.payload;
    if (!payload) {
      try {
        payload = await this.#open(event);
      } catch (error) {
        if (!(error instanceof OpenCallError)) throw error;
        this.#options.onUnreadable({ eventId: event.eventId, problem: error.problem });
        return;
      }
    }
    const routing = {
      eventId: event.eventId,
      source: event.source,
      occurredAt: event.occurredAt,
      fromDeviceId: event.fromDeviceId,
      ...(event.ring === undefined ? {} : { ring: event.ring }),
    };
    this.#options.dispatch({ type: "report-received", routing, payload });
    // A replayed call that was already answered, rejected or acknowledged elsewhere: the relay does not say by
    // which device; the reducer takes an answer this device remembers as its own.
    if (event.status !== "pending") {
      this.#options.dispatch({
        type: "remote-status",
        eventId: event.eventId,
        status: event.status,
        deviceId: null,
      });
      this.#options.onSettled?.(event.eventId);
    }
  }

  /** Opens a call with the key now; sealed under another key, once more after following the key's rotations. */
  async #open(event: RelayedEvent) {
    try {
      // The key now, not at connect time: it may have been replaced since.
      return await openRelayedEvent(this.#options.pairing().key, event);
    } catch (error) {
      const isOtherKey = error instanceof OpenCallError && error.problem === "key_mismatch";
      if (!isOtherKey || !(await this.#options.catchUpKey?.().catch(() => false))) throw error;
      return openRelayedEvent(this.#options.pairing().key, event);
    }
  }

  #onCallStatus(change: CallStatusChange): void {
    // Who answered, for the history's delivery line (own answers too: the relay's time is the one all devices see);
    // kept first, so a screen that follows the step below can already name the device.
    this.#options.change({ type: "answer-announced", change });
    this.#options.dispatch({
      type: "remote-status",
      eventId: change.eventId,
      status: change.status,
      deviceId: change.deviceId,
    });
    this.#options.onSettled?.(change.eventId);
  }

  async #onReplyStatus(change: ReplyStatusChange): Promise<void> {
    if (!this.#options.calls().records[change.eventId]) return;
    const delivery = await deliveryFromStatus(this.#options.pairing().key, change);
    this.#options.change({
      type: "reply-status",
      eventId: change.eventId,
      replyId: change.replyId,
      delivery,
    });
  }

  /** Outcomes this device has not got to the relay yet (offline, or before a restart) are sent on every connect. */
  #reportPendingDeliveries(): void {
    const reports = Object.values(this.#options.calls().records).flatMap((record) =>
      pendingDeliveryReports(record).map((outcome) => ({ eventId: record.eventId, outcome })),
    );
    if (reports.length > 0) this.#reporter.reportAll(reports).catch(() => undefined);
  }

  #onDeliveryReported(eventId: string, outcome: DeviceDeliveryOutcome, result: DeliveryReportOutcome): void {
    if (result.kind === "device-removed") {
      this.#options.onDeviceRemoved();
      return;
    }
    this.#options.change(
      result.kind === "reported"
        ? { type: "delivery-reported", eventId, outcome, delivery: result.delivery }
        : { type: "delivery-abandoned", eventId, outcome },
    );
  }

  #onStatusWritten(eventId: string, status: CallStatusWrite, outcome: StatusWriteOutcome): void {
    if (outcome.kind === "device-removed") {
      this.#options.onDeviceRemoved();
      return;
    }
    if (status !== "answered") return;
    if (outcome.kind === "answered-elsewhere") {
      this.#options.dispatch({ type: "answer-lost", eventId, status: "answered" });
    } else if (outcome.kind === "written" && !outcome.result.won && outcome.result.status !== "pending") {
      this.#options.dispatch({ type: "answer-lost", eventId, status: outcome.result.status });
    }
  }
}
