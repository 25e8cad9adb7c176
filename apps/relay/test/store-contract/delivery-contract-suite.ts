import type { DeliveryOutcome } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NewDelivery, RelayStore } from "../../src/store/store.js";
import { contractDevice, contractEvent, MINUTE_MS, seedPhoneAndTablet, T0 } from "./contract-fixtures.js";

/**
 * The delivery-outcome part of the RelayStore contract (one record per call, device and outcome); see
 * store-contract-suite.ts.
 */
export function describeDeliveryStoreContract(name: string, makeStore: () => Promise<RelayStore>): void {
  describe(`RelayStore contract, delivery outcomes: ${name}`, () => {
    let store: RelayStore;
    beforeEach(async () => {
      store = await makeStore();
      await seedPhoneAndTablet(store);
      await store.createAccount({ accountId: "acc2", device: contractDevice("pc2", "computer"), now: T0 });
      await store.appendEvent(contractEvent());
    });
    afterEach(async () => {
      await store.close();
    });

    const record = (
      deviceId: string,
      outcome: DeliveryOutcome,
      now = T0 + 1000,
      overrides: Partial<NewDelivery> = {},
    ) => store.recordDelivery({ accountId: "acc1", eventId: "ev1", deviceId, outcome, now, ...overrides });

    /** The phone rejects "ev1": a status change, and the call's ciphertext erased. */
    const rejectCall = () =>
      store.setCallStatus({
        accountId: "acc1",
        eventId: "ev1",
        deviceId: "phone",
        status: "rejected",
        now: T0 + 2000,
        answeredExpiresAt: T0 + 120 * MINUTE_MS,
      });

    const kindsSince = async (accountId: string, afterSeq: number) =>
      (await store.streamSince(accountId, afterSeq)).entries.map((entry) => [entry.seq, entry.kind]);

    it("records an outcome once, at its first time, with the device's name and the account's next seq", async () => {
      const first = await record("phone", "shown", T0 + 1000);
      const delivery = {
        seq: 2,
        eventId: "ev1",
        deviceId: "phone",
        deviceName: "device phone",
        deviceKind: "phone",
        outcome: "shown",
        at: new Date(T0 + 1000).toISOString(),
      };
      expect(first).toEqual({
        kind: "created",
        entry: { kind: "call-delivery", accountId: "acc1", seq: 2, delivery },
      });
      expect(await record("phone", "shown", T0 + 5000)).toEqual({ kind: "repeat", delivery });
      expect((await store.streamSince("acc1", 0)).headSeq).toBe(2);
    });

    it("shares the account's sequence with events and status changes", async () => {
      await record("phone", "pushed");
      const answered = await store.setCallStatus({
        accountId: "acc1",
        eventId: "ev1",
        deviceId: "tablet",
        status: "answered",
        now: T0 + 2000,
        answeredExpiresAt: T0 + 120 * MINUTE_MS,
      });
      expect(answered).toMatchObject({ kind: "changed", entry: { seq: 3 } });
      expect(await record("phone", "shown")).toMatchObject({ kind: "created", entry: { seq: 4 } });
      expect(await record("tablet", "shown")).toMatchObject({ kind: "created", entry: { seq: 5 } });
      expect(await record("phone", "opened")).toMatchObject({ kind: "created", entry: { seq: 6 } });
      expect(await kindsSince("acc1", 0)).toEqual([
        [1, "call"],
        [2, "call-delivery"],
        [3, "call-status"],
        [4, "call-delivery"],
        [5, "call-delivery"],
        [6, "call-delivery"],
      ]);
    });

    it("lets exactly one of two simultaneous records of the same outcome take a seq", async () => {
      const outcomes = await Promise.all([record("phone", "shown"), record("phone", "shown")]);
      expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(["created", "repeat"]);
      const created = outcomes.find((outcome) => outcome.kind === "created");
      const repeat = outcomes.find((outcome) => outcome.kind === "repeat");
      if (created?.kind !== "created" || repeat?.kind !== "repeat") throw new Error("one of each expected");
      expect(repeat.delivery).toEqual(created.entry.delivery);
      // The refused one left no gap: the next record takes the next seq.
      expect(await record("tablet", "shown")).toMatchObject({ entry: { seq: 3 } });
    });

    it("knows no call of another account, no unknown call and no device of another account", async () => {
      expect(await record("phone", "shown", T0, { eventId: "unknown" })).toEqual({ kind: "not_found" });
      expect(await record("pc2", "shown", T0, { accountId: "acc2" })).toEqual({ kind: "not_found" });
      expect(await record("pc2", "shown")).toEqual({ kind: "not_found" });
      expect((await store.streamSince("acc1", 0)).headSeq).toBe(1);
      expect((await store.streamSince("acc2", 0)).headSeq).toBe(0);
    });

    it("replays records after a seq, also those of a call whose ciphertext was erased", async () => {
      await record("phone", "shown");
      await rejectCall();
      // A late report of an ended call is still its history.
      await record("tablet", "shown", T0 + 3000);
      expect(await kindsSince("acc1", 0)).toEqual([
        [2, "call-delivery"],
        [3, "call-status"],
        [4, "call-delivery"],
      ]);
      expect(await kindsSince("acc1", 3)).toEqual([[4, "call-delivery"]]);
    });

    it("gives a fresh connection the records of the calls still open, with the calls, in seq order", async () => {
      await store.appendEvent(contractEvent({ eventId: "ev2" }));
      await record("phone", "shown");
      await record("phone", "shown", T0, { eventId: "ev2" });
      await store.setCallStatus({
        accountId: "acc1",
        eventId: "ev1",
        deviceId: "phone",
        status: "ended",
        now: T0 + 2000,
        answeredExpiresAt: T0 + 120 * MINUTE_MS,
      });
      const snapshot = await store.pendingCalls("acc1");
      expect(snapshot.entries.map((entry) => [entry.seq, entry.kind])).toEqual([
        [2, "call"],
        [4, "call-delivery"],
      ]);
      expect(snapshot.headSeq).toBe(5);
    });

    it("records an outcome under the name the device has then: a rename changes later records only", async () => {
      await record("phone", "shown");
      await store.renameDevice({ accountId: "acc1", deviceId: "phone", name: "e2e1.renamed" });
      await record("phone", "opened");
      const names = (await store.streamSince("acc1", 1)).entries.map((entry) =>
        entry.kind === "call-delivery" ? [entry.delivery.deviceName, entry.delivery.deviceKind] : null,
      );
      expect(names).toEqual([
        ["device phone", "phone"],
        ["e2e1.renamed", "phone"],
      ]);
    });

    it("keeps a removed device's records, under the name it had", async () => {
      await record("phone", "opened");
      await store.removeDevice({ accountId: "acc1", deviceId: "phone", now: T0 + 2000 });
      const [entry] = (await store.streamSince("acc1", 1)).entries;
      expect(entry).toMatchObject({ kind: "call-delivery", delivery: { deviceName: "device phone" } });
    });

    it("forgets a call's records when its row is pruned", async () => {
      await record("phone", "shown");
      await rejectCall();
      await store.pruneBefore(T0 + 10 * MINUTE_MS);
      expect((await store.streamSince("acc1", 0)).entries).toEqual([]);
      expect(await record("phone", "shown")).toEqual({ kind: "not_found" });
      // The same event id rings again as a new call: its history starts afresh.
      await store.appendEvent(contractEvent({ receivedAt: T0 + 11 * MINUTE_MS }));
      expect(await record("phone", "shown", T0 + 12 * MINUTE_MS)).toMatchObject({
        kind: "created",
        entry: { seq: 5 },
      });
    });
  });
}
