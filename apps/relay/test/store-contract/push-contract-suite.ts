import { PUSH_PAYLOAD_MAX_BYTES } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type NewEvent,
  PUSH_CLAIM_PER_ACCOUNT_MAX,
  type RelayStore,
  SETTLED_PUSH_TAKE_WAIT_MS,
} from "../../src/store/store.js";
import {
  contractDevice,
  contractEvent,
  MINUTE_MS,
  ROOMY_LIMITS,
  seedPhoneAndTablet,
  T0,
} from "./contract-fixtures.js";

const SECOND_MS = 1000;

function subscription(deviceId: string, overrides: { endpoint?: string; repeatSeconds?: number } = {}) {
  return {
    deviceId,
    accountId: "acc1",
    endpoint: overrides.endpoint ?? `https://push.example/${deviceId}`,
    p256dh: `p256dh-${deviceId}`,
    auth: `auth-${deviceId}`,
    repeatSeconds: overrides.repeatSeconds ?? 60,
    now: T0,
  };
}

function event(overrides: Partial<NewEvent> = {}): NewEvent {
  return contractEvent({ source: "codex", ...overrides });
}

/** Account acc2: a computer pc2 and a phone phone2 subscribed to pushes. */
async function secondAccountWithPhone(store: RelayStore): Promise<void> {
  await store.createAccount({ accountId: "acc2", device: contractDevice("pc2", "computer"), now: T0 });
  await store.createPairingCode({
    codeHash: "c2",
    accountId: "acc2",
    createdBy: "pc2",
    expiresAt: T0 + MINUTE_MS,
    now: T0,
  });
  await store.redeemPairingCode({
    codeHash: "c2",
    device: contractDevice("phone2"),
    now: T0,
    limits: ROOMY_LIMITS,
  });
  await store.setPushSubscription({ ...subscription("phone2"), accountId: "acc2" });
}

/** The Web Push part of the RelayStore contract (VAPID keys, subscriptions, push schedule); see store-contract-suite.ts. */
export function describePushStoreContract(name: string, makeStore: () => Promise<RelayStore>): void {
  describe(`RelayStore contract, Web Push: ${name}`, () => {
    let store: RelayStore;
    beforeEach(async () => {
      store = await makeStore();
      await seedPhoneAndTablet(store);
    });
    afterEach(async () => {
      await store.close();
    });

    const claimedIds = async (now: number) =>
      (await store.claimDuePushes(now))
        .map((push) => `${push.eventId}>${push.deviceId}#${push.attempt}`)
        .sort();

    it("keeps the first VAPID key pair it is given", async () => {
      const first = await store.vapidKeys({ publicKey: "pub-1", privateKey: "priv-1" });
      expect(first).toEqual({ publicKey: "pub-1", privateKey: "priv-1" });
      expect(await store.vapidKeys({ publicKey: "pub-2", privateKey: "priv-2" })).toEqual(first);
    });

    it("registers, replaces and removes a device's subscription", async () => {
      expect(await store.findPushSubscription("phone")).toBeNull();
      await store.setPushSubscription(subscription("phone"));
      expect(await store.findPushSubscription("phone")).toEqual({
        deviceId: "phone",
        accountId: "acc1",
        endpoint: "https://push.example/phone",
        p256dh: "p256dh-phone",
        auth: "auth-phone",
        repeatSeconds: 60,
        updatedAt: T0,
      });
      await store.setPushSubscription({
        ...subscription("phone", { endpoint: "https://push.example/new", repeatSeconds: 30 }),
        now: T0 + 1,
      });
      expect(await store.findPushSubscription("phone")).toMatchObject({
        endpoint: "https://push.example/new",
        repeatSeconds: 30,
        updatedAt: T0 + 1,
      });
      expect(await store.removePushSubscription("phone", "https://push.example/phone")).toBe(false);
      expect(await store.findPushSubscription("phone")).not.toBeNull();
      expect(await store.removePushSubscription("phone")).toBe(true);
      expect(await store.findPushSubscription("phone")).toBeNull();
      expect(await store.removePushSubscription("phone")).toBe(false);
    });

    it("claims account by account in turn, so one account's many due pushes never crowd out another's", async () => {
      // Account acc1's phone and tablet have 20 calls each due (40 pushes); acc2's one phone has one, due last.
      await store.setPushSubscription(subscription("phone"));
      await store.setPushSubscription(subscription("tablet"));
      for (let index = 0; index < 20; index++)
        await store.appendEvent(event({ eventId: `ev${index}`, receivedAt: T0 }));
      await secondAccountWithPhone(store);
      await store.appendEvent(
        event({ accountId: "acc2", eventId: "other", fromDeviceId: "pc2", receivedAt: T0 + 1 }),
      );
      const claimed = await store.claimDuePushes(T0 + 1);
      expect(claimed.filter((push) => push.accountId === "acc1")).toHaveLength(PUSH_CLAIM_PER_ACCOUNT_MAX);
      // acc2's push is taken in this round, though 40 of acc1's were due before it.
      expect(claimed.filter((push) => push.accountId === "acc2").map((push) => push.eventId)).toEqual([
        "other",
      ]);
      // The rest of acc1's come in later rounds.
      const next = await store.claimDuePushes(T0 + 1);
      expect(next.filter((push) => push.accountId === "acc1")).toHaveLength(PUSH_CLAIM_PER_ACCOUNT_MAX);
    });

    it("leaves the pushes of the accounts it is told to leave due, and claims the others'", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.appendEvent(event({ eventId: "ev1", receivedAt: T0 }));
      await secondAccountWithPhone(store);
      await store.appendEvent(
        event({ accountId: "acc2", eventId: "other", fromDeviceId: "pc2", receivedAt: T0 }),
      );
      const without = await store.claimDuePushes(T0, ["acc1", "acc-unknown"]);
      expect(without.map((push) => `${push.accountId}/${push.eventId}`)).toEqual(["acc2/other"]);
      expect(await store.claimDuePushes(T0, ["acc1"])).toEqual([]);
      // Still due, unclaimed: the next claim that may take it does, as its first attempt.
      expect(await claimedIds(T0)).toEqual(["ev1>phone#1"]);
    });

    it("pushes a quiet event to nobody until its computer rings it, and then to every device but the sender", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.setPushSubscription({ ...subscription("pc"), deviceId: "pc" });
      await store.appendEvent(event({ eventId: "quiet", ring: "quiet" }));
      expect(await store.claimDuePushes(T0 + MINUTE_MS)).toEqual([]);
      expect((await store.getCall("acc1", "quiet"))?.ring).toBe("quiet");
      // Only its own computer rings it.
      expect(
        await store.pushCallAgain({ accountId: "acc1", eventId: "quiet", fromDeviceId: "phone", now: T0 }),
      ).toBe(0);
      const now = T0 + 2 * MINUTE_MS;
      expect(
        await store.pushCallAgain({ accountId: "acc1", eventId: "quiet", fromDeviceId: "pc", now }),
      ).toBe(1);
      expect(await claimedIds(now)).toEqual(["quiet>phone#1"]);
      // Asked again, it is pushed again, not scheduled twice.
      expect(
        await store.pushCallAgain({ accountId: "acc1", eventId: "quiet", fromDeviceId: "pc", now: now + 1 }),
      ).toBe(1);
    });

    it("pushes a new event at once to every subscribed device but the sender", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.setPushSubscription({ ...subscription("pc"), deviceId: "pc" });
      await store.appendEvent(event());
      const due = await store.claimDuePushes(T0);
      expect(due).toEqual([
        {
          accountId: "acc1",
          eventId: "ev1",
          deviceId: "phone",
          subscription: expect.objectContaining({
            endpoint: "https://push.example/phone",
            repeatSeconds: 60,
          }),
          seq: 1,
          source: "codex",
          occurredAt: new Date(T0).toISOString(),
          receivedAt: T0,
          taskId: null,
          fromDeviceId: "pc",
          expiresAt: T0 + 60 * MINUTE_MS,
          attempt: 1,
          failures: 0,
          sealed: event().sealed,
        },
      ]);
    });

    it("hands a claimed push its sealed call only when it could fit in a push", async () => {
      await store.setPushSubscription(subscription("phone"));
      const long = `e2e1.0123456789abcdef.aXY.${"A".repeat(PUSH_PAYLOAD_MAX_BYTES)}`;
      await store.appendEvent(event({ eventId: "short" }));
      await store.appendEvent(event({ eventId: "long", sealed: long }));
      const due = await store.claimDuePushes(T0);
      expect(Object.fromEntries(due.map((push) => [push.eventId, push.sealed]))).toEqual({
        short: event().sealed,
        long: null,
      });
    });

    it("claims a push once, then again after the device's repeat while the call rings", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.setPushSubscription(subscription("tablet", { repeatSeconds: 30 }));
      await store.appendEvent(event());
      expect(await claimedIds(T0)).toEqual(["ev1>phone#1", "ev1>tablet#1"]);
      expect(await claimedIds(T0)).toEqual([]);
      expect(await claimedIds(T0 + 30 * SECOND_MS)).toEqual(["ev1>tablet#2"]);
      expect(await claimedIds(T0 + 60 * SECOND_MS)).toEqual(["ev1>phone#2", "ev1>tablet#3"]);
    });

    it("pushes a ringing call again now when the computer that posted it asks, and nothing else", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.setPushSubscription(subscription("tablet"));
      await store.appendEvent(event());
      expect(await claimedIds(T0)).toEqual(["ev1>phone#1", "ev1>tablet#1"]);
      const again = { accountId: "acc1", eventId: "ev1", fromDeviceId: "pc", now: T0 + 5 * SECOND_MS };
      expect(await store.pushCallAgain({ ...again, fromDeviceId: "phone" })).toBe(0);
      expect(await store.pushCallAgain({ ...again, eventId: "ev9" })).toBe(0);
      expect(await store.pushCallAgain(again)).toBe(2);
      expect(await claimedIds(T0 + 5 * SECOND_MS)).toEqual(["ev1>phone#2", "ev1>tablet#2"]);
      await store.setCallStatus({
        accountId: "acc1",
        eventId: "ev1",
        deviceId: "tablet",
        status: "answered",
        now: T0 + 6 * SECOND_MS,
        answeredExpiresAt: T0 + 120 * MINUTE_MS,
      });
      expect(await store.pushCallAgain({ ...again, now: T0 + 7 * SECOND_MS })).toBe(0);
    });

    it("lets exactly one of two simultaneous claims take a push", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.appendEvent(event());
      const claims = await Promise.all([store.claimDuePushes(T0), store.claimDuePushes(T0)]);
      expect(claims.flat()).toHaveLength(1);
    });

    it("stops pushing a call once it is answered, ended or expired", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.appendEvent(event());
      await store.appendEvent(event({ eventId: "ev2", expiresAt: T0 + MINUTE_MS / 2 }));
      await store.appendEvent(event({ eventId: "ev3" }));
      expect(await claimedIds(T0)).toEqual(["ev1>phone#1", "ev2>phone#1", "ev3>phone#1"]);
      await store.setCallStatus({
        accountId: "acc1",
        eventId: "ev1",
        deviceId: "tablet",
        status: "answered",
        now: T0 + 1,
        answeredExpiresAt: T0 + 120 * MINUTE_MS,
      });
      expect(await claimedIds(T0 + MINUTE_MS)).toEqual(["ev3>phone#2"]);
      // What was forgotten stays forgotten.
      expect(await claimedIds(T0 + 10 * MINUTE_MS)).toEqual(["ev3>phone#3"]);
    });

    it("takes a settled call's pushes once: the devices pushed it but the one that settled it", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.setPushSubscription(subscription("tablet"));
      await store.setPushSubscription({ ...subscription("pc"), deviceId: "pc" });
      await store.appendEvent(event());
      expect(await claimedIds(T0)).toEqual(["ev1>phone#1", "ev1>tablet#1"]);
      const answer = { accountId: "acc1", eventId: "ev1", deviceId: "phone", now: T0 + 1 };
      await store.setCallStatus({ ...answer, status: "answered", answeredExpiresAt: T0 + MINUTE_MS });
      const taken = await store.takeSettledPushes({ accountId: "acc1", eventId: "ev1", settledBy: "phone" });
      expect(taken).toEqual([
        expect.objectContaining({ deviceId: "tablet", endpoint: "https://push.example/tablet" }),
      ]);
      // The answering device ends the call later: the other devices were already told.
      await store.setCallStatus({
        ...answer,
        status: "ended",
        now: T0 + 2,
        answeredExpiresAt: T0 + MINUTE_MS,
      });
      expect(
        await store.takeSettledPushes({ accountId: "acc1", eventId: "ev1", settledBy: "phone" }),
      ).toEqual([]);
      expect(await claimedIds(T0 + 10 * MINUTE_MS)).toEqual([]);
    });

    it("takes an expired call's pushes for every device pushed it, and none a device was never pushed", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.appendEvent(event());
      await store.appendEvent(event({ eventId: "ev2" }));
      expect(await claimedIds(T0)).toEqual(["ev1>phone#1", "ev2>phone#1"]);
      // Subscribed after the calls began: never pushed them.
      await store.setPushSubscription(subscription("tablet"));
      // Past its time, not yet swept: not pushed again, but kept for the sweep to take.
      expect(await claimedIds(T0 + 60 * MINUTE_MS)).toEqual([]);
      await store.setCallStatus({
        accountId: "acc1",
        eventId: "ev2",
        deviceId: "phone",
        status: "answered",
        now: T0 + 1,
        answeredExpiresAt: T0 + 120 * MINUTE_MS,
      });
      expect((await store.expireDue(T0 + 60 * MINUTE_MS)).map((entry) => entry.kind)).toEqual([
        "call-status",
      ]);
      const taken = await store.takeSettledPushes({ accountId: "acc1", eventId: "ev1", settledBy: null });
      expect(taken.map((record) => record.deviceId)).toEqual(["phone"]);
    });

    it("keeps a just-settled call's pushes for its take, and forgets them if nobody takes them", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.appendEvent(event());
      await store.appendEvent(event({ eventId: "ev2" }));
      expect(await claimedIds(T0)).toEqual(["ev1>phone#1", "ev2>phone#1"]);
      for (const eventId of ["ev1", "ev2"]) {
        await store.setCallStatus({
          accountId: "acc1",
          eventId,
          deviceId: "tablet",
          status: "rejected",
          now: T0 + MINUTE_MS - 1,
          answeredExpiresAt: T0 + 120 * MINUTE_MS,
        });
      }
      // The repeat falls due between the status write and its take: not pushed, and not forgotten.
      expect(await claimedIds(T0 + MINUTE_MS)).toEqual([]);
      const taken = await store.takeSettledPushes({ accountId: "acc1", eventId: "ev1", settledBy: "tablet" });
      expect(taken.map((record) => record.deviceId)).toEqual(["phone"]);
      // ev2's take never came (its instance stopped): forgotten once the wait is over.
      expect(await claimedIds(T0 + MINUTE_MS - 1 + SETTLED_PUSH_TAKE_WAIT_MS)).toEqual([]);
      expect(
        await store.takeSettledPushes({ accountId: "acc1", eventId: "ev2", settledBy: "tablet" }),
      ).toEqual([]);
    });

    it("lets exactly one of two simultaneous takes of a settled call find its devices", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.appendEvent(event());
      await store.claimDuePushes(T0);
      const input = { accountId: "acc1", eventId: "ev1", settledBy: "tablet" };
      const takes = await Promise.all([store.takeSettledPushes(input), store.takeSettledPushes(input)]);
      expect(takes.flat().map((record) => record.deviceId)).toEqual(["phone"]);
    });

    it("retries at the time given and counts failures until a push is sent", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.appendEvent(event());
      const [first] = await store.claimDuePushes(T0);
      if (!first) throw new Error("no push claimed");
      await store.settlePush(first, { kind: "retry", at: T0 + 2 * SECOND_MS });
      expect(await store.claimDuePushes(T0 + SECOND_MS)).toEqual([]);
      const [second] = await store.claimDuePushes(T0 + 2 * SECOND_MS);
      expect(second).toMatchObject({ attempt: 2, failures: 1 });
      if (!second) throw new Error("no push claimed");
      await store.settlePush(second, { kind: "sent" });
      const [third] = await store.claimDuePushes(T0 + 2 * SECOND_MS + MINUTE_MS);
      expect(third).toMatchObject({ attempt: 3, failures: 0 });
    });

    it("drops a push for good when told to", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.appendEvent(event());
      const [first] = await store.claimDuePushes(T0);
      if (!first) throw new Error("no push claimed");
      await store.settlePush(first, { kind: "drop" });
      expect(await store.claimDuePushes(T0 + 10 * MINUTE_MS)).toEqual([]);
      expect(await store.findPushSubscription("phone")).not.toBeNull();
    });

    it("removes a removed device's subscription and its pushes with it", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.setPushSubscription(subscription("tablet"));
      await store.appendEvent(event());
      await store.removeDevice({ accountId: "acc1", deviceId: "phone", now: T0 });
      expect(await store.findPushSubscription("phone")).toBeNull();
      expect(await claimedIds(T0)).toEqual(["ev1>tablet#1"]);
    });

    it("forgets the pushes of a removed subscription", async () => {
      await store.setPushSubscription(subscription("phone"));
      await store.appendEvent(event());
      expect(await store.removePushSubscription("phone", "https://push.example/phone")).toBe(true);
      await store.setPushSubscription(subscription("phone"));
      expect(await store.claimDuePushes(T0 + MINUTE_MS)).toEqual([]);
    });
  });
}
