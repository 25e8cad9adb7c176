import {
  CallStream,
  newReplyId,
  openRelayedEvent,
  RelayClient,
  sealPermissionDecision,
} from "@ringback/client";
import { type E2eKey, parseKey } from "@ringback/e2e-crypto";
import type { PairingResult, PermissionAsk, RelayedEvent } from "@ringback/protocol";
import { Changes, eventually } from "@ringback/test-kit";

/** Checks (20 ms apart) a call may take to reach the device: 30 s, far beyond a working round. */
const CALL_CHECKS = 1_500;

/** A "needs you" call as the device opened it with its key. */
interface OpenedAsk {
  readonly event: RelayedEvent;
  readonly ask: PermissionAsk;
}

/** When the tap's two posts were answered by the relay (`performance.now()` ms). */
interface TapTimes {
  /** The relay answered the call status `answered` (this device won the call). */
  readonly answeredAt: number;
  /** The relay took the sealed decision (its `POST /v1/calls/<eventId>/replies` answer). */
  readonly decisionSentAt: number;
}

/**
 * A phone stand-in built from @ringback/client as the web app uses it: it joins with the code and key
 * `ringback pair --json` printed, follows the relay's event stream (`CallStream`), opens each call with its key
 * (`openRelayedEvent`, AAD `aad.report`), and taps Allow as the app's `CallCenter.decide` does: the call status
 * `answered` first (the first device wins), then the decision sealed by `sealPermissionDecision` as a reply.
 */
export class DecisionDevice implements AsyncDisposable {
  readonly #relay: RelayClient;
  readonly #stream: CallStream;
  readonly #key: E2eKey;
  readonly #changes = new Changes();
  readonly #asks: OpenedAsk[] = [];
  readonly #unreadable: string[] = [];
  #isSynced = false;

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
            if (payload.needsYou) this.#asks.push({ event, ask: payload.needsYou });
          } catch (error) {
            this.#unreadable.push(`${event.eventId}: ${String(error)}`);
          }
          this.#changes.notify();
        },
        onCallStatus: () => undefined,
        onSynced: () => {
          this.#isSynced = true;
          this.#changes.notify();
        },
        onDeviceRemoved: () => undefined,
      },
    });
  }

  /** Redeems the pairing code as a phone, then opens the event stream and waits for its first `synced`. */
  static async join(pairing: PairingResult): Promise<DecisionDevice> {
    const relay = new RelayClient({ serverUrl: pairing.serverUrl });
    const credentials = await relay.redeemPairingCode({
      code: pairing.code,
      deviceName: "bench phone",
      deviceKind: "phone",
    });
    const device = new DecisionDevice(pairing.serverUrl, credentials.deviceToken, parseKey(pairing.key));
    device.#stream.start();
    await eventually(() => device.#isSynced, { what: "the device's stream to sync", on: device.#changes });
    return device;
  }

  /** The "needs you" call whose command is `command`, once it has reached the device and been opened. */
  waitForAsk(command: string): Promise<OpenedAsk> {
    return eventually(
      () => {
        if (this.#unreadable.length > 0)
          throw new Error(`calls the device could not open: ${this.#unreadable.join("; ")}`);
        return this.#asks.find(
          (opened) => (opened.ask.toolInput as { command?: unknown } | null)?.command === command,
        );
      },
      {
        what: `the "needs you" call for \`${command}\` on the device`,
        checks: CALL_CHECKS,
        on: this.#changes,
      },
    );
  }

  /** The tap on Allow: answers the call, then sends the sealed decision, each once the relay took the one before. */
  async allow(opened: OpenedAsk): Promise<TapTimes> {
    const { eventId } = opened.event;
    const status = await this.#relay.writeCallStatus(eventId, "answered");
    if (!status.won) throw new Error(`the device did not win the call ${eventId}`);
    const answeredAt = performance.now();
    const request = await sealPermissionDecision(this.#key, {
      computerId: opened.event.fromDeviceId,
      eventId,
      replyId: newReplyId(),
      toolInputDigest: opened.ask.toolInputDigest,
      verdict: "allow",
      reason: null,
    });
    await this.#relay.sendReply(eventId, request);
    return { answeredAt, decisionSentAt: performance.now() };
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#stream.close();
    await this.#stream.idle();
  }
}
