import {
  CallStream,
  newReplyId,
  openRelayedEvent,
  RelayClient,
  sealPermissionDecision,
} from "@ringback/client";
import { aad, type E2eKey, openJson, parseKey } from "@ringback/e2e-crypto";
import {
  type CallStatusChange,
  type PairingResult,
  type PermissionAsk,
  type PermissionVerdict,
  type RelayedEvent,
  ReplyErrorPlaintext,
  type ReplyStatusChange,
  type SealedReportPayload,
} from "@ringback/protocol";
import { Changes, eventually } from "@ringback/test-kit";

/** Checks (20 ms apart) for what reaches the device through an agent's run on a busy machine. */
const DEVICE_CHECKS = 15_000;

/** A call as the device opened it with its key. */
export interface OpenedCall {
  event: RelayedEvent;
  payload: SealedReportPayload;
}

/** A "needs you" call as the device opened it. */
export interface OpenedAsk extends OpenedCall {
  ask: PermissionAsk;
}

/**
 * A phone stand-in built from the client library as the web app uses it: it joins the account with the pairing
 * code and key `ringback pair` printed, follows the relay's event stream (`CallStream`), opens calls with its key
 * (`openRelayedEvent`), answers them and sends decisions sealed by `sealPermissionDecision`.
 */
export class TestDevice implements AsyncDisposable {
  /** Every call, opened, in stream order. */
  readonly calls: OpenedCall[] = [];
  /** Calls the device could not open (a wrong key, a damaged or invalid payload): none expected. */
  readonly unreadable: string[] = [];
  readonly callStatuses: CallStatusChange[] = [];
  readonly replyStatuses: ReplyStatusChange[] = [];
  readonly #relay: RelayClient;
  readonly #stream: CallStream;
  readonly #key: E2eKey;
  readonly #changes = new Changes();
  #synced = false;

  private constructor(serverUrl: string, deviceToken: string, key: E2eKey) {
    this.#key = key;
    this.#relay = new RelayClient({ serverUrl, deviceToken });
    this.#stream = new CallStream({
      serverUrl,
      deviceToken,
      lastEventId: null,
      handlers: {
        onCall: async (event) => {
          try {
            const payload = await openRelayedEvent(this.#key, event);
            this.#note(() => this.calls.push({ event, payload }));
          } catch (error) {
            this.#note(() => this.unreadable.push(`${event.eventId}: ${String(error)}`));
          }
        },
        onCallStatus: (change) => this.#note(() => this.callStatuses.push(change)),
        onReplyStatus: (change) => this.#note(() => this.replyStatuses.push(change)),
        onSynced: () =>
          this.#note(() => {
            this.#synced = true;
          }),
        onDeviceRemoved: () => undefined,
      },
    });
  }

  /** Redeems the pairing code as a phone, then opens the event stream and waits for its first `synced`. */
  static async join(pairing: PairingResult): Promise<TestDevice> {
    const relay = new RelayClient({ serverUrl: pairing.serverUrl });
    const credentials = await relay.redeemPairingCode({
      code: pairing.code,
      deviceName: "test phone",
      deviceKind: "phone",
    });
    const device = new TestDevice(pairing.serverUrl, credentials.deviceToken, parseKey(pairing.key));
    device.#stream.start();
    await eventually(() => device.#synced, {
      what: "the device's stream to sync",
      checks: DEVICE_CHECKS,
      on: device.#changes,
    });
    return device;
  }

  /** `find()`, unless a call could not be opened: then that is the failure, at once. */
  #checked<T>(find: () => T): T {
    if (this.unreadable.length > 0)
      throw new Error(`calls the device could not open: ${this.unreadable.join("; ")}`);
    return find();
  }

  #note(change: () => void): void {
    change();
    this.#changes.notify();
  }

  /** The "needs you" calls so far (a `needsYou` ask in the sealed payload). */
  asks(): OpenedAsk[] {
    return this.calls.flatMap((call) =>
      call.payload.needsYou === undefined ? [] : [{ ...call, ask: call.payload.needsYou }],
    );
  }

  /** The first "needs you" call, once it has arrived. */
  waitForAsk(): Promise<OpenedAsk> {
    return eventually(() => this.#checked(() => this.asks()[0]), {
      what: 'a "needs you" call on the device',
      checks: DEVICE_CHECKS,
      on: this.#changes,
    });
  }

  /** The first report call (an agent's finished turn) whose report text passes `match`. */
  async waitForReport(match: (text: string) => boolean): Promise<OpenedCall> {
    try {
      return await eventually(
        () =>
          this.#checked(() =>
            this.calls.find((call) => call.payload.needsYou === undefined && match(call.payload.report.text)),
          ),
        { what: "a report call on the device", checks: DEVICE_CHECKS, on: this.#changes },
      );
    } catch (error) {
      const seen = this.calls.map((call) => JSON.stringify(call.payload.report.text)).join(", ");
      throw new Error(`${(error as Error).message}; calls seen: [${seen}]`, { cause: error });
    }
  }

  /** Picks up the call (status `answered`: the first device wins), as a person does before deciding. */
  async answer(eventId: string): Promise<void> {
    const result = await this.#relay.writeCallStatus(eventId, "answered");
    if (!result.won) throw new Error(`the device did not win the call ${eventId}`);
  }

  /** Sends the decision as a reply to the call, sealed for the computer that raised it; resolves with its reply id. */
  async decide(opened: OpenedAsk, verdict: PermissionVerdict, reason: string | null = null): Promise<string> {
    const request = await sealPermissionDecision(this.#key, {
      computerId: opened.event.fromDeviceId,
      eventId: opened.event.eventId,
      replyId: newReplyId(),
      toolInputDigest: opened.ask.toolInputDigest,
      verdict,
      reason,
    });
    await this.#relay.sendReply(opened.event.eventId, request);
    return request.replyId;
  }

  /** The reply's final status as the relay relays it (`delivered` once the daemon took the decision). */
  waitForReplyStatus(replyId: string): Promise<ReplyStatusChange> {
    return eventually(
      () => this.replyStatuses.find((change) => change.replyId === replyId && change.status !== "queued"),
      { what: `the status of reply ${replyId}`, checks: DEVICE_CHECKS, on: this.#changes },
    );
  }

  /** Why the computer refused a reply, opened with the device's key (AAD `reply-error/<replyId>`), or the relay's. */
  async failureReason(change: ReplyStatusChange): Promise<string | null> {
    if (change.sealedReason === null) return change.plaintextReason;
    const opened = await openJson(this.#key, aad.replyError(change.replyId), change.sealedReason);
    return ReplyErrorPlaintext.parse(opened).reason;
  }

  /** The call's status changes the relay sent (e.g. `answered` by another device). */
  waitForCallStatus(eventId: string, status: string): Promise<CallStatusChange> {
    return eventually(
      () => this.callStatuses.find((change) => change.eventId === eventId && change.status === status),
      { what: `call ${eventId} ${status}`, checks: DEVICE_CHECKS, on: this.#changes },
    );
  }

  close(): Promise<void> {
    this.#stream.close();
    return this.#stream.idle();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
