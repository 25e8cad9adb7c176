import { createHash } from "node:crypto";
import type { PushMessage } from "@ringback/protocol";
import type { Clock } from "../clock.js";
import type { RelayLog } from "../log.js";
import { type DuePush, PUSH_CLAIM_BATCH_MAX, type RelayStore } from "../store/store.js";
import type { PushKeys } from "./push-keys.js";
import { pushRetryDelayMs } from "./push-retry.js";
import { type PushTransport, sendPush } from "./push-sender.js";

/** Pushes in flight at once per relay process, so a burst to many devices does not open a socket per device. */
export const PUSH_SENDS_AT_ONCE_MAX = 32;
/** RFC 8030 §5.4: a topic is at most 32 characters of the base64url alphabet. */
const TOPIC_CHARS = 32;

/**
 * Delivers the Web Pushes the store says are due: a new event's first push to every subscribed device (but the
 * computer that sent it), and the repeat of a call still ringing every `repeatSeconds` of the device. Each answer
 * is acted on: 404/410 removes the subscription, 429/5xx/no answer retries with backoff (never sooner than
 * `Retry-After`), any other refusal drops that call's pushes to that device and is logged with its id.
 */
export class PushDelivery {
  readonly #store: RelayStore;
  readonly #clock: Clock;
  readonly #log: RelayLog;
  readonly #keys: PushKeys;
  readonly #transport: PushTransport;
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(options: {
    store: RelayStore;
    clock: Clock;
    log: RelayLog;
    keys: PushKeys;
    transport: PushTransport;
  }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#keys = options.keys;
    this.#transport = options.transport;
  }

  /** Sends every push due now; resolves once each has its answer and the answer is recorded. */
  async deliverDue(): Promise<void> {
    const sends: Promise<void>[] = [];
    for (;;) {
      const due = await this.#store.claimDuePushes(this.#clock.now());
      for (const push of due) sends.push(this.#limited(() => this.#deliver(push)));
      if (due.length < PUSH_CLAIM_BATCH_MAX) break;
    }
    await Promise.all(sends);
  }

  /** Starts `deliverDue` and returns at once: nothing (a daemon's post, a stream) waits for a push service. */
  kick(): void {
    this.deliverDue().catch((error: unknown) => this.#failed("claiming pushes", error));
  }

  async #deliver(push: DuePush): Promise<void> {
    try {
      const keys = await this.#keys.get();
      const now = this.#clock.now();
      const outcome = await sendPush(this.#transport, {
        subscription: push.subscription,
        message: pushMessage(push),
        keys,
        ttlSeconds: Math.max(0, Math.floor((push.expiresAt - now) / 1000)),
        topic: pushTopic(push.eventId),
      });
      const who = `event=${push.eventId} device=${push.deviceId}`;
      switch (outcome.kind) {
        case "sent":
          // Only a push that failed before has anything to reset (and a write saved is an fsync saved).
          if (push.failures > 0) await this.#store.settlePush(push, { kind: "sent" });
          this.#log.line(`push sent ${who} attempt=${push.attempt} status=${outcome.status}`);
          return;
        case "gone": {
          // Only this endpoint: the device may have subscribed afresh while the push was on its way.
          const isRemoved = await this.#store.removePushSubscription(
            push.deviceId,
            push.subscription.endpoint,
          );
          this.#log.line(
            `push subscription gone ${who} status=${outcome.status} (${isRemoved ? "removed" : "already replaced"})`,
          );
          return;
        }
        case "busy": {
          const answeredAt = this.#clock.now();
          const delayMs = pushRetryDelayMs(push.failures, outcome.retryAfter, answeredAt);
          await this.#store.settlePush(push, { kind: "retry", at: answeredAt + delayMs });
          this.#log.line(
            `push deferred ${who} status=${outcome.status ?? "no answer"} retry in ${Math.ceil(delayMs / 1000)}s`,
          );
          return;
        }
        case "refused":
          await this.#store.settlePush(push, { kind: "drop" });
          this.#log.line(`push refused ${who} status=${outcome.status ?? "unsendable"} (dropped)`);
          return;
      }
    } catch (error) {
      this.#failed(`pushing event=${push.eventId} device=${push.deviceId}`, error);
    }
  }

  async #limited(work: () => Promise<void>): Promise<void> {
    if (this.#active >= PUSH_SENDS_AT_ONCE_MAX) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#active++;
    try {
      await work();
    } finally {
      this.#active--;
      this.#waiting.shift()?.();
    }
  }

  #failed(job: string, error: unknown): void {
    // Only the class: a message could quote an endpoint, which is a capability URL.
    this.#log.line(`${job} failed: ${error instanceof Error ? error.name : "unknown error"}`);
  }
}

/** The pushed payload: the call's routing plaintext, nothing sealed and nothing the relay could not already see. */
function pushMessage(push: DuePush): PushMessage {
  return {
    type: "call",
    eventId: push.eventId,
    seq: push.seq,
    source: push.source,
    occurredAt: push.occurredAt,
    receivedAt: new Date(push.receivedAt).toISOString(),
    taskId: push.taskId,
    fromDeviceId: push.fromDeviceId,
    expiresAt: new Date(push.expiresAt).toISOString(),
    attempt: push.attempt,
  };
}

/** One topic per call: a repeat replaces the device's undelivered earlier push of the same call. */
function pushTopic(eventId: string): string {
  return createHash("sha256").update(`ringback/push/${eventId}`).digest("base64url").slice(0, TOPIC_CHARS);
}
