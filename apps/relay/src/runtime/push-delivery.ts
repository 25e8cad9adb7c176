import { createHash } from "node:crypto";
import type { CallStatusChange, PushMessage } from "@ringback/protocol";
import type { Clock } from "../clock.js";
import type { RelayLog } from "../log.js";
import type {
  DuePush,
  PushKey,
  PushSubscriptionRecord,
  RelayStore,
  StreamEntry,
  VapidKeys,
} from "../store/store.js";
import type { PushKeys } from "./push-keys.js";
import { pushPayload } from "./push-payload.js";
import { pushRetryDelayMs } from "./push-retry.js";
import { type PushOutcome, type PushTransport, sendPush } from "./push-sender.js";
import { VapidTokens } from "./vapid-tokens.js";

/** Pushes in flight at once per relay process, so a burst to many devices does not open a socket per device. */
export const PUSH_SENDS_AT_ONCE_MAX = 32;
/**
 * Pushes of one account in flight at once: an account whose push services are slow or silent holds at most these of
 * the relay's sends, and waiting pushes take the free ones account by account in turn, so one account never delays
 * another's ringing (a phone, a tablet and a laptop of one account push at once within it).
 */
export const PUSH_SENDS_PER_ACCOUNT_MAX = 4;
/**
 * Sends beyond `PUSH_SENDS_AT_ONCE_MAX` for accounts with none in flight: an account's first push starts at once even
 * while other accounts' slow or silent push services hold every shared send (nine accounts of four sends each fill
 * them), so it waits for nobody until this many accounts are stuck at once, each on sends of its own.
 */
export const PUSH_FIRST_SENDS_MAX = 96;
/**
 * Claimed pushes of one account under way (sending or waiting for a send) at most: beyond it the account's due pushes
 * stay in the store, so one account's backlog cannot fill the relay's queue and stop the claiming of everyone's.
 */
const PUSH_UNDER_WAY_PER_ACCOUNT_MAX = 64;
/**
 * Timeouts in a row (no connection, or no answer) after which a subscription is removed rather than tried again: a
 * browser's push service answers; an endpoint that keeps holding the relay's sockets is not one.
 */
export const PUSH_TIMEOUTS_MAX = 3;
/** Subscriptions whose timeouts in a row are remembered at most (the oldest are forgotten first). */
const PUSH_TIMEOUT_RECORDS_MAX = 10_000;
/**
 * Claimed pushes under way at most: while push services are slow or silent, no more are claimed (the rest stay due in
 * the store, where the next round finds them), so memory stays bounded however long they stall. Past it, the pushes of
 * accounts with none under way are still claimed (a first push never waits for other accounts' backlogs), up to twice
 * this in all.
 */
export const PUSH_QUEUED_MAX = 1000;

/** The pushes under way in this process. */
export interface PushDeliveryStats {
  /** Sent and not answered yet (at most `PUSH_SENDS_AT_ONCE_MAX`, and `PUSH_FIRST_SENDS_MAX` accounts' first). */
  readonly sending: number;
  /** Claimed, waiting for a free send. */
  readonly queued: number;
}

/** RFC 8030 §5.4: a topic is at most 32 characters of the base64url alphabet. */
const TOPIC_CHARS = 32;
/**
 * How long a push service may hold a `call-settled` push for a device it cannot reach. Short: it only closes a
 * notification, and the same topic has already replaced an undelivered ringing push. An hour still covers a
 * sleeping phone, which takes normal-urgency pushes only in its next maintenance window.
 */
export const PUSH_SETTLED_TTL_SECONDS = 60 * 60;

/** A call that stopped ringing: who settled it (null: it expired) and how. */
export interface SettledCall {
  readonly accountId: string;
  readonly eventId: string;
  readonly status: CallStatusChange["status"];
  readonly settledBy: string | null;
}

/** The call a status change settled, from its stream entry (the device that wrote it; null when it expired). */
export function settledCall(entry: StreamEntry & { kind: "call-status" }): SettledCall {
  return {
    accountId: entry.accountId,
    eventId: entry.change.eventId,
    status: entry.change.status,
    settledBy: entry.change.deviceId,
  };
}

/**
 * Delivers the Web Pushes the store says are due: a new event's first push to every subscribed device (but the
 * computer that sent it), and the repeat of a call still ringing every `repeatSeconds` of the device. Each answer
 * is acted on: 404/410 removes the subscription, 429/5xx/no answer retries with backoff (never sooner than
 * `Retry-After`), any other refusal drops that call's pushes to that device and is logged with its id. A ringing push
 * the push service accepted is `onPushed` (the relay's `pushed` delivery record).
 */
export class PushDelivery {
  readonly #store: RelayStore;
  readonly #clock: Clock;
  readonly #log: RelayLog;
  readonly #keys: PushKeys;
  readonly #transport: PushTransport;
  readonly #tokens = new VapidTokens();
  readonly #onPushed: (key: PushKey) => Promise<unknown>;
  readonly #appUrl: string | null;
  #active = 0;
  readonly #activeByAccount = new Map<string, number>();
  /** Pushes waiting for a send, per account; the accounts in the order they take turns. */
  readonly #waiting = new Map<string, (() => void)[]>();
  #waitingCount = 0;
  #turns: string[] = [];
  /** Claimed pushes not finished (sending or waiting), per account and in all. */
  readonly #underWay = new Map<string, number>();
  #underWayCount = 0;
  /** Timeouts in a row per subscription (device and endpoint). */
  readonly #timeouts = new Map<string, number>();
  readonly #settling = new Set<Promise<void>>();
  #claiming: Promise<void> = Promise.resolve();
  /** A round left due pushes in the store for want of room under way. */
  #isHeldBack = false;

  constructor(options: {
    store: RelayStore;
    clock: Clock;
    log: RelayLog;
    keys: PushKeys;
    transport: PushTransport;
    /** A push service accepted (2xx) a ringing push of the call for the device; not called for `call-settled`. */
    onPushed: (key: PushKey) => Promise<unknown>;
    /** The web app's address (`--public-url`) a declarative push opens; null: pushes go without one (`pushPayload`). */
    appUrl?: string | null;
  }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#keys = options.keys;
    this.#transport = options.transport;
    this.#onPushed = options.onPushed;
    this.#appUrl = options.appUrl ?? null;
  }

  /**
   * Sends the pushes due now, claiming none of an account with `PUSH_UNDER_WAY_PER_ACCOUNT_MAX` under way, and once
   * `PUSH_QUEUED_MAX` are under way only those of accounts with none (the rest go in a later round); resolves once
   * each has its answer and the answer is recorded.
   */
  async deliverDue(): Promise<void> {
    const sends: Promise<void>[] = [];
    // One claiming round at a time, and a bounded queue: a silent push service cannot make the relay hold ever more
    // pushes, and one account's backlog never keeps another's pushes in the store.
    const round = this.#claiming.then(async () => {
      // A round claims at most `PUSH_CLAIM_PER_ACCOUNT_MAX` of an account: it claims again while anything came, so
      // a call to many devices is sent at once, not a batch per poll (100 devices took six polls: 6 s).
      for (;;) {
        const exceptAccounts = this.#accountsNotToClaim();
        if (exceptAccounts === null || exceptAccounts.length > 0) this.#isHeldBack = true;
        if (exceptAccounts === null) break;
        const due = await this.#store.claimDuePushes(this.#clock.now(), exceptAccounts);
        for (const push of due) sends.push(this.#underWayWhile(push.accountId, () => this.#deliver(push)));
        if (due.length === 0) break;
      }
    });
    this.#claiming = round.catch(() => {});
    await round;
    await Promise.all(sends);
  }

  /** The accounts whose due pushes a round leaves in the store now; null: claim none at all. */
  #accountsNotToClaim(): string[] | null {
    if (this.#underWayCount >= 2 * PUSH_QUEUED_MAX) return null;
    const underWay = [...this.#underWay];
    if (this.#underWayCount >= PUSH_QUEUED_MAX) return underWay.map(([accountId]) => accountId);
    return underWay
      .filter(([, count]) => count >= PUSH_UNDER_WAY_PER_ACCOUNT_MAX)
      .map(([accountId]) => accountId);
  }

  /** Counts a claimed push of the account as under way until it is sent and its answer recorded. */
  async #underWayWhile(accountId: string, work: () => Promise<void>): Promise<void> {
    this.#underWay.set(accountId, (this.#underWay.get(accountId) ?? 0) + 1);
    this.#underWayCount++;
    try {
      await work();
    } finally {
      this.#underWayCount--;
      const left = (this.#underWay.get(accountId) ?? 1) - 1;
      if (left > 0) this.#underWay.set(accountId, left);
      else this.#underWay.delete(accountId);
      // Room again for pushes a round left in the store: claimed now, not at the next poll.
      if (this.#isHeldBack) {
        this.#isHeldBack = false;
        this.kick();
      }
    }
  }

  stats(): PushDeliveryStats {
    return { sending: this.#active, queued: this.#waitingCount };
  }

  /** Starts `deliverDue` and returns at once: nothing (a daemon's post, a stream) waits for a push service. */
  kick(): void {
    this.deliverDue().catch((error: unknown) => this.#failed("claiming pushes", error));
  }

  /**
   * Tells the devices a call was pushed to (but the one that settled it) that it stopped ringing, so a closed app's
   * notification closes: one `call-settled` push each, with the call's topic (an undelivered ringing push is
   * replaced), normal urgency and a short TTL. Returns at once: a status write never waits for a push service. Best
   * effort: one try; 404/410 removes the subscription, any other failure is only logged.
   */
  kickSettled(call: SettledCall): void {
    const sending: Promise<void> = this.#pushSettled(call)
      .catch((error: unknown) => this.#failed(`announcing event=${call.eventId} settled`, error))
      .finally(() => this.#settling.delete(sending));
    this.#settling.add(sending);
  }

  /** Resolves once every `call-settled` push started so far has its answer. */
  async settledSent(): Promise<void> {
    await Promise.all([...this.#settling]);
  }

  async #pushSettled(call: SettledCall): Promise<void> {
    const subscriptions = await this.#store.takeSettledPushes(call);
    if (subscriptions.length === 0) return;
    const keys = await this.#keys.get();
    const message: PushMessage = { type: "call-settled", eventId: call.eventId, status: call.status };
    await Promise.all(
      subscriptions.map((subscription) => this.#sendSettled(call.accountId, subscription, message, keys)),
    );
  }

  async #sendSettled(
    accountId: string,
    subscription: PushSubscriptionRecord,
    message: PushMessage,
    keys: VapidKeys,
  ): Promise<void> {
    const who = `event=${message.eventId} device=${subscription.deviceId}`;
    try {
      const outcome = await this.#limited(accountId, () =>
        sendPush(
          this.#transport,
          {
            subscription,
            payload: pushPayload(message, this.#appUrl),
            keys,
            ttlSeconds: PUSH_SETTLED_TTL_SECONDS,
            topic: pushTopic(message.eventId),
            urgency: "normal",
          },
          this.#tokens,
        ),
      );
      const hasTimedOut = outcome.kind === "busy" && outcome.timedOut !== null;
      if (this.#timedOut(subscription.deviceId, subscription.endpoint, hasTimedOut)) {
        await this.#removeTimedOut(subscription.deviceId, subscription.endpoint, who);
        return;
      }
      if (outcome.kind === "gone" || outcome.kind === "forbidden") {
        await this.#removeGone(subscription.deviceId, subscription.endpoint, who, outcome);
        return;
      }
      const status = outcome.status ?? (outcome.kind === "busy" ? "no answer" : "unsendable");
      this.#log.line(
        outcome.kind === "sent"
          ? `push settled sent ${who} status=${status}`
          : `push settled not sent ${who} status=${status} (not retried)`,
      );
    } catch (error) {
      this.#failed(`announcing ${who} settled`, error);
    }
  }

  async #deliver(push: DuePush): Promise<void> {
    try {
      const keys = await this.#keys.get();
      // The send holds one of the relay's sends and one of the account's; what is written after its answer does not,
      // so the next push goes out while this one is recorded.
      const outcome = await this.#limited(push.accountId, () =>
        sendPush(
          this.#transport,
          {
            subscription: push.subscription,
            payload: pushPayload(pushMessage(push), this.#appUrl),
            keys,
            ttlSeconds: Math.max(0, Math.floor((push.expiresAt - this.#clock.now()) / 1000)),
            topic: pushTopic(push.eventId),
            urgency: "high",
          },
          this.#tokens,
        ),
      );
      const who = `event=${push.eventId} device=${push.deviceId}`;
      const hasTimedOut = outcome.kind === "busy" && outcome.timedOut !== null;
      if (this.#timedOut(push.deviceId, push.subscription.endpoint, hasTimedOut)) {
        await this.#removeTimedOut(push.deviceId, push.subscription.endpoint, who);
        return;
      }
      switch (outcome.kind) {
        case "sent":
          // Only a push that failed before has anything to reset (and a write saved is an fsync saved).
          if (push.failures > 0) await this.#store.settlePush(push, { kind: "sent" });
          this.#log.line(`push sent ${who} attempt=${push.attempt} status=${outcome.status}`);
          await this.#onPushed(push).catch((error: unknown) =>
            this.#failed(`recording ${who} pushed`, error),
          );
          return;
        case "gone":
        case "forbidden":
          await this.#removeGone(push.deviceId, push.subscription.endpoint, who, outcome);
          return;
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

  /**
   * The push service said the subscription is gone (404/410), or the endpoint is one the relay may not push to (its
   * text fails today's rules, or its name resolved into a private network): the subscription is removed.
   */
  async #removeGone(
    deviceId: string,
    endpoint: string,
    who: string,
    outcome: PushOutcome & { kind: "gone" | "forbidden" },
  ): Promise<void> {
    // Only this endpoint: the device may have subscribed afresh while the push was on its way.
    const isRemoved = await this.#store.removePushSubscription(deviceId, endpoint);
    const why =
      outcome.kind === "gone" ? `gone ${who} status=${outcome.status}` : `refused ${who} (${outcome.reason})`;
    this.#log.line(`push subscription ${why} (${isRemoved ? "removed" : "already replaced"})`);
  }

  /** The subscription timed out `PUSH_TIMEOUTS_MAX` times in a row: it is removed, not tried again. */
  async #removeTimedOut(deviceId: string, endpoint: string, who: string): Promise<void> {
    const isRemoved = await this.#store.removePushSubscription(deviceId, endpoint);
    this.#log.line(
      `push subscription timed out ${PUSH_TIMEOUTS_MAX} times in a row ${who} (${isRemoved ? "removed" : "already replaced"})`,
    );
  }

  /**
   * Runs `work` in one of the relay's sends, and one of its account's: while either is full it waits its turn, and
   * the accounts with pushes waiting take free sends in turn (round robin), not in the order the pushes came. An
   * account with none in flight takes one beyond the shared sends (`PUSH_FIRST_SENDS_MAX`).
   */
  async #limited<T>(accountId: string, work: () => Promise<T>): Promise<T> {
    if (!this.#canStart(accountId)) {
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(accountId);
        if (queue) queue.push(resolve);
        else {
          this.#waiting.set(accountId, [resolve]);
          this.#turns.push(accountId);
        }
        this.#waitingCount++;
      });
    } else {
      this.#take(accountId);
    }
    try {
      return await work();
    } finally {
      this.#active--;
      const left = this.#activeOf(accountId) - 1;
      if (left > 0) this.#activeByAccount.set(accountId, left);
      else this.#activeByAccount.delete(accountId);
      this.#startWaiting();
    }
  }

  #activeOf(accountId: string): number {
    return this.#activeByAccount.get(accountId) ?? 0;
  }

  /** A send is free for the account: a shared one within its own limit, or its first beyond the shared ones. */
  #canStart(accountId: string): boolean {
    const active = this.#activeOf(accountId);
    if (active >= PUSH_SENDS_PER_ACCOUNT_MAX) return false;
    if (this.#active < PUSH_SENDS_AT_ONCE_MAX) return true;
    return active === 0 && this.#active < PUSH_SENDS_AT_ONCE_MAX + PUSH_FIRST_SENDS_MAX;
  }

  #take(accountId: string): void {
    this.#active++;
    this.#activeByAccount.set(accountId, this.#activeOf(accountId) + 1);
  }

  /** Hands free sends to waiting pushes, one account after another, skipping accounts that may not start one. */
  #startWaiting(): void {
    while (this.#turns.length > 0) {
      const index = this.#turns.findIndex((accountId) => this.#canStart(accountId));
      if (index < 0) return;
      const [accountId] = this.#turns.splice(index, 1);
      if (accountId === undefined) return;
      const queue = this.#waiting.get(accountId) ?? [];
      const next = queue.shift();
      if (queue.length > 0) this.#turns.push(accountId);
      else this.#waiting.delete(accountId);
      if (next === undefined) continue;
      this.#waitingCount--;
      this.#take(accountId);
      next();
    }
  }

  /**
   * Counts a timeout of the subscription (device and endpoint); true once it has timed out `PUSH_TIMEOUTS_MAX` times
   * in a row. Any answer starts the count again.
   */
  #timedOut(deviceId: string, endpoint: string, hasTimedOut: boolean): boolean {
    const key = `${deviceId} ${endpoint}`;
    if (!hasTimedOut) {
      this.#timeouts.delete(key);
      return false;
    }
    const count = (this.#timeouts.get(key) ?? 0) + 1;
    this.#timeouts.delete(key);
    if (count >= PUSH_TIMEOUTS_MAX) return true;
    this.#timeouts.set(key, count);
    if (this.#timeouts.size > PUSH_TIMEOUT_RECORDS_MAX) {
      const oldest = this.#timeouts.keys().next().value;
      if (oldest !== undefined) this.#timeouts.delete(oldest);
    }
    return false;
  }

  #failed(job: string, error: unknown): void {
    // Only the class: a message could quote an endpoint, which is a capability URL.
    this.#log.line(`${job} failed: ${error instanceof Error ? error.name : "unknown error"}`);
  }
}

/**
 * The ringing call's message: its routing plaintext and, when short, the call as sealed by its computer; nothing the
 * relay could read, and nothing it does not hand every device of the account anyway.
 */
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
    ...(push.sealed === null ? {} : { sealed: push.sealed }),
  };
}

/**
 * One topic per call: a repeat replaces the device's undelivered earlier push of the same call, and so does the
 * call's `call-settled` push.
 */
function pushTopic(eventId: string): string {
  return createHash("sha256").update(`ringback/push/${eventId}`).digest("base64url").slice(0, TOPIC_CHARS);
}
