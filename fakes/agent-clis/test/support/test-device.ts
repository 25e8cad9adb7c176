import {
  CallStream,
  newReplyId,
  openRelayedEvent,
  RelayClient,
  sealPermissionDecision,
} from "@ringback/client";
import { aad, type E2eKey, openFleetState, openJson, parseKey } from "@ringback/e2e-crypto";
import {
  type CallStatusChange,
  FleetState,
  type PairingResult,
  type PermissionAsk,
  type PermissionVerdict,
  type RelayedEvent,
  RelayedFleet,
  ReplyErrorPlaintext,
  type ReplyStatusChange,
  type SealedReportPayload,
} from "@ringback/protocol";
import { Changes, eventually } from "@ringback/test-kit";

/** A call as the device opened it with its key. */
export interface OpenedCall {
  event: RelayedEvent;
  payload: SealedReportPayload;
}

/** A "needs you" call as the device opened it. */
export interface OpenedAsk extends OpenedCall {
  ask: PermissionAsk;
}

export interface TestDeviceOptions {
  /** The name the device joins the account with. */
  deviceName: string;
  /** Checks (20 ms apart) each wait for a call or a status on the device may take. */
  checks: number;
  /** Checks (20 ms apart) its event stream may take to sync after joining; `eventually`'s default unless set. */
  syncChecks?: number;
}

/**
 * A phone stand-in built from @ringback/client as the web app uses it: it joins the account with the pairing code and
 * key `ringback pair` printed, follows the relay's event stream (`CallStream`), opens calls with its key
 * (`openRelayedEvent`, AAD `aad.report`), answers them (the call status `answered`: the first device wins) and sends
 * decisions sealed by `sealPermissionDecision`, as the app's `CallCenter.decide` does. e2e's needs-you bench uses it
 * too, run by plain `node`: this file imports packages only.
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
  readonly #checks: number;
  readonly #changes = new Changes();
  #synced = false;

  readonly #serverUrl: string;
  readonly #deviceToken: string;

  private constructor(serverUrl: string, deviceToken: string, key: E2eKey, checks: number) {
    this.#serverUrl = serverUrl;
    this.#deviceToken = deviceToken;
    this.#key = key;
    this.#checks = checks;
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
  static async join(pairing: PairingResult, options: TestDeviceOptions): Promise<TestDevice> {
    const relay = new RelayClient({ serverUrl: pairing.serverUrl });
    const credentials = await relay.redeemPairingCode({
      code: pairing.code,
      deviceName: options.deviceName,
      deviceKind: "phone",
    });
    const key = parseKey(pairing.key);
    const device = new TestDevice(pairing.serverUrl, credentials.deviceToken, key, options.checks);
    device.#stream.start();
    await eventually(() => device.#synced, {
      what: "the device's stream to sync",
      checks: options.syncChecks,
      on: device.#changes,
    });
    return device;
  }

  /** Every computer's fleet state as the relay keeps it (`GET /v1/fleet`), opened with this device's key. */
  async fleetStates(): Promise<FleetState[]> {
    const response = await fetch(`${this.#serverUrl}/v1/fleet`, {
      headers: { authorization: `Bearer ${this.#deviceToken}` },
    });
    const fleet = RelayedFleet.parse(await response.json());
    return Promise.all(
      fleet.computers.map(async ({ computerId, sealed }) =>
        FleetState.parse(await openFleetState(this.#key, computerId, sealed)),
      ),
    );
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

  /** The first "needs you" call (the first asking to run `command`, when given), once it has arrived. */
  waitForAsk(command?: string): Promise<OpenedAsk> {
    const isWanted = (opened: OpenedAsk) =>
      command === undefined || (opened.ask.toolInput as { command?: unknown } | null)?.command === command;
    return eventually(() => this.#checked(() => this.asks().find(isWanted)), {
      what:
        command === undefined
          ? 'a "needs you" call on the device'
          : `the "needs you" call for \`${command}\` on the device`,
      checks: this.#checks,
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
        { what: "a report call on the device", checks: this.#checks, on: this.#changes },
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
      { what: `the status of reply ${replyId}`, checks: this.#checks, on: this.#changes },
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
      { what: `call ${eventId} ${status}`, checks: this.#checks, on: this.#changes },
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
