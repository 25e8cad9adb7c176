import type { DeviceKind } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NewDevice, RelayStore, StreamPage } from "../../src/store/store.js";
import {
  contractEvent,
  contractReply,
  MINUTE_MS,
  ROOMY_LIMITS,
  ROOMY_REPLY_LIMITS,
  T0,
} from "./contract-fixtures.js";
import { describeDeliveryStoreContract } from "./delivery-contract-suite.js";
import { describeFleetStoreContract } from "./fleet-contract-suite.js";
import { describePushStoreContract } from "./push-contract-suite.js";

function device(id: string, kind: DeviceKind = "computer"): NewDevice {
  return { id, name: `device ${id}`, kind, tokenHash: `hash-${id}` };
}

/**
 * The behaviour every RelayStore must have. Run it against each implementation with a factory that returns a
 * fresh, empty, migrated store; the suite closes each store after its test.
 */
export function describeStoreContract(name: string, makeStore: () => Promise<RelayStore>): void {
  describe(`RelayStore contract: ${name}`, () => {
    let store: RelayStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    async function account(accountId = "acc1", ...devices: NewDevice[]): Promise<void> {
      const [first = device(`${accountId}-d1`), ...rest] = devices;
      await store.createAccount({ accountId, device: first, now: T0 });
      for (const extra of rest) {
        const codeHash = `code-${extra.id}`;
        await store.createPairingCode({
          codeHash,
          accountId,
          createdBy: first.id,
          expiresAt: T0 + MINUTE_MS,
          now: T0,
        });
        await store.redeemPairingCode({ codeHash, device: extra, now: T0, limits: ROOMY_LIMITS });
      }
    }

    /** Redeems the pairing code `codeHash` for a new device `deviceId`, within roomy limits. */
    function redeem(codeHash: string, deviceId: string, now = T0) {
      return store.redeemPairingCode({ codeHash, device: device(deviceId), now, limits: ROOMY_LIMITS });
    }

    const event = contractEvent;

    function answer(
      deviceId: string,
      status: "answered" | "rejected" | "acknowledged" | "ended",
      eventId = "ev1",
    ) {
      return store.setCallStatus({
        accountId: "acc1",
        eventId,
        deviceId,
        status,
        now: T0 + MINUTE_MS,
        answeredExpiresAt: T0 + 120 * MINUTE_MS,
      });
    }

    it("reports its kind and a migration version", async () => {
      expect(store.kind).toMatch(/\w+/);
      expect(await store.migrationVersion()).toBeGreaterThanOrEqual(1);
    });

    describe("owner claim", () => {
      it("creates the first account only with the claim code, once", async () => {
        expect(await store.hasAccounts()).toBe(false);
        await store.setClaimCodeHash("claim-hash");
        const claim = (claimCodeHash: string, id: string) =>
          store.claimRelay({ claimCodeHash, accountId: `acc-${id}`, device: device(id), now: T0 });
        expect(await claim("wrong", "a")).toBe("invalid_claim_code");
        expect(await store.hasAccounts()).toBe(false);
        expect(await claim("claim-hash", "b")).toBe("claimed");
        expect(await store.hasAccounts()).toBe(true);
        expect(await claim("claim-hash", "c")).toBe("already_claimed");
        expect((await store.findDeviceByTokenHash("hash-b"))?.accountId).toBe("acc-b");
      });

      it("refuses a claim when no claim code was set", async () => {
        const outcome = await store.claimRelay({
          claimCodeHash: "x",
          accountId: "a",
          device: device("a"),
          now: T0,
        });
        expect(outcome).toBe("invalid_claim_code");
      });
    });

    describe("devices", () => {
      it("finds a device by its token hash and lists the account's devices", async () => {
        await account("acc1", device("pc"), device("phone", "phone"));
        await account("acc2", device("other"));
        const found = await store.findDeviceByTokenHash("hash-phone");
        expect(found).toMatchObject({ id: "phone", accountId: "acc1", kind: "phone", name: "device phone" });
        expect((await store.listDevices("acc1")).map((d) => d.id)).toEqual(["pc", "phone"]);
        expect(await store.findDevice("acc2", "pc")).toBeNull();
      });

      it("refuses a removed device's token for good", async () => {
        await account("acc1", device("pc"), device("phone", "phone"));
        expect((await store.removeDevice({ accountId: "acc1", deviceId: "phone", now: T0 })).removed).toBe(
          true,
        );
        expect(await store.findDeviceByTokenHash("hash-phone")).toBeNull();
        expect(await store.findDevice("acc1", "phone")).toBeNull();
        expect((await store.listDevices("acc1")).map((d) => d.id)).toEqual(["pc"]);
        expect((await store.removeDevice({ accountId: "acc1", deviceId: "phone", now: T0 })).removed).toBe(
          false,
        );
      });

      it("does not remove a device of another account", async () => {
        await account("acc1", device("pc"));
        await account("acc2", device("other"));
        expect((await store.removeDevice({ accountId: "acc2", deviceId: "pc", now: T0 })).removed).toBe(
          false,
        );
        expect(await store.findDeviceByTokenHash("hash-pc")).not.toBeNull();
      });

      it("replaces a live device's name, and no removed device's nor another account's", async () => {
        await account("acc1", device("pc"), device("phone", "phone"));
        await account("acc2", device("other"));
        expect(await store.renameDevice({ accountId: "acc1", deviceId: "phone", name: "e2e1.sealed" })).toBe(
          true,
        );
        expect(await store.findDevice("acc1", "phone")).toMatchObject({ name: "e2e1.sealed", kind: "phone" });
        expect((await store.listDevices("acc1")).map((d) => d.name)).toEqual(["device pc", "e2e1.sealed"]);
        expect(await store.renameDevice({ accountId: "acc2", deviceId: "pc", name: "x" })).toBe(false);
        expect((await store.findDevice("acc1", "pc"))?.name).toBe("device pc");
        await store.removeDevice({ accountId: "acc1", deviceId: "phone", now: T0 });
        expect(await store.renameDevice({ accountId: "acc1", deviceId: "phone", name: "y" })).toBe(false);
      });

      it("records activity at most once per interval", async () => {
        await account("acc1", device("pc"));
        await store.touchDevice("pc", T0 + 1000, MINUTE_MS);
        await store.touchDevice("pc", T0 + 2000, MINUTE_MS);
        expect((await store.findDevice("acc1", "pc"))?.lastSeenAt).toBe(T0 + 1000);
        await store.touchDevice("pc", T0 + 1000 + MINUTE_MS, MINUTE_MS);
        expect((await store.findDevice("acc1", "pc"))?.lastSeenAt).toBe(T0 + 1000 + MINUTE_MS);
      });
    });

    describe("pairing codes", () => {
      const code = {
        codeHash: "c1",
        accountId: "acc1",
        createdBy: "pc",
        expiresAt: T0 + 10 * MINUTE_MS,
        now: T0,
      };

      it("adds a device to the code's account once", async () => {
        await account("acc1", device("pc"));
        expect(await store.createPairingCode(code)).toBe(true);
        expect(await redeem("c1", "phone", T0 + 1)).toEqual({ kind: "joined", accountId: "acc1" });
        expect(await redeem("c1", "tab", T0 + 2)).toEqual({ kind: "invalid" });
        expect((await store.findDeviceByTokenHash("hash-phone"))?.accountId).toBe("acc1");
        expect(await store.findDeviceByTokenHash("hash-tab")).toBeNull();
      });

      it("refuses an expired code and lets its digits be drawn again", async () => {
        await account("acc1", device("pc"));
        await store.createPairingCode(code);
        expect(await store.createPairingCode({ ...code, createdBy: "other", now: T0 + 1 })).toBe(false);
        const late = T0 + 10 * MINUTE_MS;
        expect(await redeem("c1", "phone", late)).toEqual({ kind: "invalid" });
        expect(await store.createPairingCode({ ...code, now: late, expiresAt: late + MINUTE_MS })).toBe(true);
      });

      it("keeps one live code per device: a new one replaces the last", async () => {
        await account("acc1", device("pc"));
        await store.createPairingCode(code);
        await store.createPairingCode({ ...code, codeHash: "c2" });
        expect(await redeem("c1", "phone")).toEqual({ kind: "invalid" });
        expect(await redeem("c2", "phone")).toEqual({ kind: "joined", accountId: "acc1" });
      });

      it("lets no wrong guess, however many, spend or burn a live code", async () => {
        await account("acc1", device("pc"), device("laptop"));
        await store.createPairingCode(code);
        await store.createPairingCode({ ...code, codeHash: "c2", createdBy: "laptop" });
        for (let guess = 0; guess < 100; guess++) {
          const wrong = {
            codeHash: `wrong-${guess}`,
            device: device(`x${guess}`),
            now: T0,
            limits: ROOMY_LIMITS,
          };
          expect(await store.redeemPairingCode(wrong)).toEqual({ kind: "invalid" });
        }
        expect(await redeem("c1", "phone")).toEqual({ kind: "joined", accountId: "acc1" });
        expect(await redeem("c2", "tab")).toEqual({ kind: "joined", accountId: "acc1" });
      });

      it("lets no more devices join than the account's limits, concurrent redemptions included, and keeps the code", async () => {
        await account("acc1", device("pc"));
        const limits = { devicesMax: 3, pairingsMax: 100, pairingWindowMs: 60 * MINUTE_MS };
        const codes = ["a", "b", "c", "d", "e"];
        for (const [index, codeHash] of codes.entries()) {
          await store.createPairingCode({
            ...code,
            codeHash,
            createdBy: index === 0 ? "pc" : `maker-${index}`,
          });
        }
        const outcomes = await Promise.all(
          codes.map((codeHash) =>
            store.redeemPairingCode({ codeHash, device: device(`new-${codeHash}`), now: T0, limits }),
          ),
        );
        expect(outcomes.filter((outcome) => outcome.kind === "joined")).toHaveLength(2);
        expect(outcomes.filter((outcome) => outcome.kind === "devices-full")).toHaveLength(3);
        expect(await store.listDevices("acc1")).toHaveLength(3);
        // The refused codes stay live: once a device is removed, one of them joins.
        const refused = codes[outcomes.findIndex((outcome) => outcome.kind === "devices-full")] ?? "";
        const joinedId = outcomes.findIndex((outcome) => outcome.kind === "joined");
        await store.removeDevice({ accountId: "acc1", deviceId: `new-${codes[joinedId]}`, now: T0 });
        expect(
          await store.redeemPairingCode({ codeHash: refused, device: device("late"), now: T0 + 1, limits }),
        ).toEqual({ kind: "joined", accountId: "acc1" });
      });

      it("lets no more devices join within the window than pairingsMax, removals or not", async () => {
        await account("acc1", device("pc"));
        const limits = { devicesMax: 100, pairingsMax: 3, pairingWindowMs: 60 * MINUTE_MS };
        const join = async (id: string, now: number) => {
          await store.createPairingCode({ ...code, codeHash: `code-${id}`, now, expiresAt: now + MINUTE_MS });
          const outcome = await store.redeemPairingCode({
            codeHash: `code-${id}`,
            device: device(id),
            now,
            limits,
          });
          if (outcome.kind === "joined") await store.removeDevice({ accountId: "acc1", deviceId: id, now });
          return outcome;
        };
        // The account's first device counts as one of the window's three.
        expect((await join("d1", T0 + 1)).kind).toBe("joined");
        expect((await join("d2", T0 + 2)).kind).toBe("joined");
        expect(await join("d3", T0 + 3)).toEqual({
          kind: "pairings-full",
          accountId: "acc1",
          retryAt: T0 + 60 * MINUTE_MS,
        });
        expect((await join("d4", T0 + 60 * MINUTE_MS + 1)).kind).toBe("joined");
      });

      it("forgets removed devices with the history of their time", async () => {
        await account("acc1", device("pc"), device("phone"));
        await store.removeDevice({ accountId: "acc1", deviceId: "phone", now: T0 + 1 });
        expect(await store.findDeviceByTokenHash("hash-phone")).toBeNull();
        await store.pruneBefore(T0 + 2);
        // Its id is free again and its token still opens nothing.
        expect(await store.findDeviceByTokenHash("hash-phone")).toBeNull();
        await store.createPairingCode(code);
        expect(await redeem("c1", "phone", T0 + 3)).toEqual({ kind: "joined", accountId: "acc1" });
        expect((await store.listDevices("acc1")).map((listed) => listed.id)).toEqual(["pc", "phone"]);
      });

      it("forgets everything of a device removed before the cut-off, and an account with no device left", async () => {
        await account("acc1", device("pc"), device("phone"));
        await account("acc2", device("lone"));
        await store.appendEvent(event({ fromDeviceId: "pc" }));
        await store.recordDelivery({
          accountId: "acc1",
          eventId: "ev1",
          deviceId: "phone",
          outcome: "shown",
          now: T0,
        });
        await store.removeDevice({ accountId: "acc1", deviceId: "phone", now: T0 + 1 });
        await store.removeDevice({ accountId: "acc2", deviceId: "lone", now: T0 + 1 });
        const deliveriesOf = async (deviceId: string) =>
          (await store.streamSince("acc1", 0)).entries.filter(
            (entry) => entry.kind === "call-delivery" && entry.delivery.deviceId === deviceId,
          );
        expect(await deliveriesOf("phone")).toHaveLength(1);
        await store.pruneBefore(T0 + 1);
        expect(await deliveriesOf("phone")).toHaveLength(1);
        expect((await store.streamSince("acc2", 0)).headSeq).toBe(0);
        await store.pruneBefore(T0 + 2);
        expect(await deliveriesOf("phone")).toEqual([]);
        // The open call and the account's live device stay.
        expect((await store.getCall("acc1", "ev1"))?.eventId).toBe("ev1");
        expect((await store.listDevices("acc1")).map((listed) => listed.id)).toEqual(["pc"]);
        // acc2 is gone: a device may be created under its id again.
        await store.createAccount({ accountId: "acc2", device: device("lone2"), now: T0 + 3 });
        expect((await store.listDevices("acc2")).map((listed) => listed.id)).toEqual(["lone2"]);
      });

      it("drops the codes of a removed device", async () => {
        await account("acc1", device("pc"), device("laptop"));
        await store.createPairingCode({ ...code, createdBy: "laptop" });
        await store.removeDevice({ accountId: "acc1", deviceId: "laptop", now: T0 });
        expect(await redeem("c1", "phone")).toEqual({ kind: "invalid" });
      });
    });

    describe("key rotations", () => {
      const notice = (rotationId: string, fromKeyId: string, now = T0) => ({
        accountId: "acc1",
        rotationId,
        fromKeyId,
        postedBy: "acc1-d1",
        sealed: `e2e1.${fromKeyId}.iv.${rotationId}`,
        now,
        keptMax: 3,
      });

      it("keeps one notice per old key: a second from the same key is a conflict, a repeat is answered as one", async () => {
        await account("acc1");
        const first = await store.addKeyRotation(notice("r1", "k1"));
        expect(first).toEqual({
          kind: "created",
          record: { rotationId: "r1", sealed: "e2e1.k1.iv.r1", createdAt: T0 },
        });
        expect(await store.addKeyRotation(notice("r1", "k1", T0 + 5))).toEqual({
          kind: "repeat",
          record: { rotationId: "r1", sealed: "e2e1.k1.iv.r1", createdAt: T0 },
        });
        expect(await store.addKeyRotation(notice("r2", "k1"))).toEqual({ kind: "conflict" });
        expect(await store.addKeyRotation({ ...notice("r1", "k2"), sealed: "e2e1.k2.iv.other" })).toEqual({
          kind: "conflict",
        });
        expect((await store.keyRotations("acc1")).map((kept) => kept.rotationId)).toEqual(["r1"]);
        expect(await store.keyRotations("acc2")).toEqual([]);
      });

      it("lists them oldest first and keeps only the newest keptMax", async () => {
        await account("acc1");
        for (const [index, keyId] of ["k1", "k2", "k3", "k4"].entries()) {
          await store.addKeyRotation(notice(`r${index + 1}`, keyId, T0 + index));
        }
        expect((await store.keyRotations("acc1")).map((kept) => kept.rotationId)).toEqual(["r2", "r3", "r4"]);
      });

      it("forgets the notices a device posted when it is removed, so the slot of its old key is free again", async () => {
        await account("acc1", device("acc1-d1"), device("phone"));
        await store.addKeyRotation({ ...notice("r1", "k1"), postedBy: "phone" });
        await store.addKeyRotation(notice("r2", "k2"));
        await store.removeDevice({ accountId: "acc1", deviceId: "phone", now: T0 });
        expect((await store.keyRotations("acc1")).map((kept) => kept.rotationId)).toEqual(["r2"]);
        expect((await store.addKeyRotation(notice("r3", "k1"))).kind).toBe("created");
      });

      it("lets one of two notices from the same key in at once", async () => {
        await account("acc1");
        const outcomes = await Promise.all([
          store.addKeyRotation(notice("r1", "k1")),
          store.addKeyRotation(notice("r2", "k1")),
        ]);
        expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(["conflict", "created"]);
        expect(await store.keyRotations("acc1")).toHaveLength(1);
      });
    });

    describe("rate limits", () => {
      it("counts hits in a fixed window and starts again after it", async () => {
        expect(await store.rateLimitState("k", T0)).toEqual({ count: 0, resetAt: T0 });
        await store.rateLimitHit("k", T0, MINUTE_MS);
        const second = await store.rateLimitHit("k", T0 + 1000, MINUTE_MS);
        expect(second).toEqual({ count: 2, resetAt: T0 + MINUTE_MS });
        expect(await store.rateLimitState("k", T0 + 2000)).toEqual(second);
        expect((await store.rateLimitState("other", T0)).count).toBe(0);
        expect(await store.rateLimitHit("k", T0 + MINUTE_MS, MINUTE_MS)).toEqual({
          count: 1,
          resetAt: T0 + 2 * MINUTE_MS,
        });
      });
    });

    describe("events", () => {
      beforeEach(async () => {
        await account("acc1", device("pc"), device("laptop"), device("phone", "phone"));
        await account("acc2", device("pc2"));
      });

      it("counts the account's calls that hold ciphertext and their bytes, until each ends or expires", async () => {
        expect(await store.accountUsage("acc1")).toEqual({ openCalls: 0, queuedReplies: 0, sealedBytes: 0 });
        await store.appendEvent(event({ sealed: "e2e1.k.iv.12345" }));
        await store.appendEvent(event({ eventId: "ev2", sealed: "e2e1.k.iv.1234567890" }));
        await store.appendEvent(event({ accountId: "acc2", fromDeviceId: "pc2", sealed: "e2e1.k.iv.x" }));
        expect(await store.accountUsage("acc1")).toEqual({
          openCalls: 2,
          queuedReplies: 0,
          sealedBytes: 15 + 20,
        });
        // Answered: the ciphertext stays (the answering device may read it again); ended: it is erased.
        await answer("phone", "answered");
        expect(await store.accountUsage("acc1")).toEqual({ openCalls: 2, queuedReplies: 0, sealedBytes: 35 });
        await answer("phone", "ended");
        expect(await store.accountUsage("acc1")).toEqual({ openCalls: 1, queuedReplies: 0, sealedBytes: 20 });
        await store.expireDue(T0 + 61 * MINUTE_MS);
        expect(await store.accountUsage("acc1")).toEqual({ openCalls: 0, queuedReplies: 0, sealedBytes: 0 });
        expect((await store.accountUsage("acc2")).openCalls).toBe(0);
      });

      it("gives each account its own increasing sequence", async () => {
        const first = await store.appendEvent(event());
        const second = await store.appendEvent(event({ eventId: "ev2" }));
        const other = await store.appendEvent(event({ accountId: "acc2", fromDeviceId: "pc2" }));
        expect(first).toMatchObject({
          kind: "created",
          entry: { seq: 1, event: { seq: 1, status: "pending" } },
        });
        expect(second).toMatchObject({ kind: "created", entry: { seq: 2 } });
        expect(other).toMatchObject({ kind: "created", entry: { seq: 1 } });
      });

      it("takes events posted at once: a seq each, a repeat answered as one, a bad one failing alone", async () => {
        const results = await Promise.allSettled(
          [
            event({ eventId: "a" }),
            event({ eventId: "b" }),
            event({ eventId: "a" }),
            event({ eventId: "x", accountId: "no-such-account" }),
            event({ eventId: "c" }),
          ].map((input) => store.appendEvent(input)),
        );
        expect(results.map((result) => result.status)).toEqual([
          "fulfilled",
          "fulfilled",
          "fulfilled",
          "rejected",
          "fulfilled",
        ]);
        const outcomes = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
        const created = outcomes.flatMap((outcome) => (outcome.kind === "created" ? [outcome.entry] : []));
        expect(created.map((entry) => entry.seq).sort((a, b) => a - b)).toEqual([1, 2, 3]);
        const seqOfA = created.find((entry) => entry.event.eventId === "a")?.seq;
        expect(outcomes.filter((outcome) => outcome.kind === "repeat")).toEqual([
          { kind: "repeat", seq: seqOfA },
        ]);
        const stream = await store.streamSince("acc1", 0);
        expect(
          stream.entries.map((entry) => (entry.kind === "call" ? entry.event.eventId : "")).sort(),
        ).toEqual(["a", "b", "c"]);
      });

      it("holds the account's quota in the insert: of reports posted at once, only what fits is stored, a repeat still answered", async () => {
        const limits = { openCallsMax: 3, sealedBytesMax: 1024 * 1024 };
        await store.appendEvent(event({ eventId: "first", limits }));
        const outcomes = await Promise.all(
          Array.from({ length: 12 }, (_, index) =>
            store.appendEvent(event({ eventId: `burst${index}`, limits })),
          ),
        );
        expect(outcomes.filter((outcome) => outcome.kind === "created")).toHaveLength(2);
        const full = outcomes.filter((outcome) => outcome.kind === "full");
        expect(full).toHaveLength(10);
        expect(full[0]).toMatchObject({ kind: "full", usage: { openCalls: 3 } });
        expect((await store.accountUsage("acc1")).openCalls).toBe(3);
        // Refused events leave no gap in the sequence, and a repeat of a stored one is answered as one, full or not.
        expect((await store.streamSince("acc1", 0)).entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
        expect(await store.appendEvent(event({ eventId: "first", limits }))).toEqual({
          kind: "repeat",
          seq: 1,
        });
        // Bytes count too: another account's room is its own.
        const bytes = { openCallsMax: 100, sealedBytesMax: 40 };
        const sealed = `e2e1.k.iv.${"x".repeat(10)}`;
        const byBytes = await Promise.all(
          ["b1", "b2", "b3"].map((eventId) =>
            store.appendEvent(
              event({ accountId: "acc2", fromDeviceId: "pc2", eventId, sealed, limits: bytes }),
            ),
          ),
        );
        expect(byBytes.map((outcome) => outcome.kind).sort()).toEqual(["created", "created", "full"]);
      });

      it("answers a repeat of the same event from the same computer with the same seq", async () => {
        await store.appendEvent(event());
        await store.appendEvent(event({ eventId: "ev2" }));
        expect(await store.appendEvent(event())).toEqual({ kind: "repeat", seq: 1 });
        expect((await store.streamSince("acc1", 0)).entries.map((e) => e.seq)).toEqual([1, 2]);
      });

      it("counts a stored event in its window in the same commit, and neither a repeat nor one the quota refused", async () => {
        const countsIn = { key: "events:pc", windowMs: MINUTE_MS };
        await store.appendEvent(event({ countsIn }));
        await store.appendEvent(event({ eventId: "ev2", countsIn }));
        await store.appendEvent(event({ countsIn }));
        const full = { openCallsMax: 2, sealedBytesMax: 1024 * 1024 };
        expect((await store.appendEvent(event({ eventId: "ev3", countsIn, limits: full }))).kind).toBe(
          "full",
        );
        expect(await store.rateLimitState("events:pc", T0)).toEqual({ count: 2, resetAt: T0 + MINUTE_MS });
      });

      it("refuses a tracker task another computer already reported", async () => {
        const tracker = { source: "tracker" as const, taskId: "task-1", eventId: "task-1" };
        expect((await store.appendEvent(event(tracker))).kind).toBe("created");
        expect(await store.appendEvent(event({ ...tracker, fromDeviceId: "laptop" }))).toEqual({
          kind: "duplicate_task",
        });
        expect(await store.appendEvent(event({ ...tracker, eventId: "other-id" }))).toEqual({
          kind: "duplicate_task",
        });
        expect(await store.appendEvent(event(tracker))).toEqual({ kind: "repeat", seq: 1 });
      });

      it("lets the same tracker task ring once in each account", async () => {
        const tracker = { source: "tracker" as const, taskId: "task-1", eventId: "task-1" };
        await store.appendEvent(event(tracker));
        const other = await store.appendEvent(event({ ...tracker, accountId: "acc2", fromDeviceId: "pc2" }));
        expect(other.kind).toBe("created");
      });

      it("returns the call while its ciphertext exists", async () => {
        await store.appendEvent(event());
        expect(await store.getCall("acc1", "ev1")).toMatchObject({ eventId: "ev1", sealed: "e2e1.k.iv.ct" });
        expect(await store.getCall("acc2", "ev1")).toBeNull();
      });
    });

    describe("call status", () => {
      beforeEach(async () => {
        await account("acc1", device("pc"), device("laptop"), device("phone", "phone"));
        await store.appendEvent(event());
      });

      it("lets the first answer win and tells a later one the call was answered", async () => {
        const first = await answer("phone", "answered");
        expect(first).toMatchObject({
          kind: "changed",
          status: "answered",
          entry: { seq: 2, change: { eventId: "ev1", status: "answered", deviceId: "phone" } },
        });
        expect(await answer("laptop", "answered")).toEqual({ kind: "already_answered", status: "answered" });
        expect(await answer("laptop", "ended")).toEqual({ kind: "already_answered", status: "answered" });
        expect(await answer("phone", "answered")).toEqual({ kind: "repeat", status: "answered" });
        expect((await store.getCall("acc1", "ev1"))?.status).toBe("answered");
      });

      it("lets exactly one of two simultaneous answers win", async () => {
        const outcomes = await Promise.all([answer("phone", "answered"), answer("laptop", "answered")]);
        expect(outcomes.filter((o) => o.kind === "changed")).toHaveLength(1);
        expect(outcomes.filter((o) => o.kind === "already_answered")).toHaveLength(1);
      });

      it("erases report and brief when the call ends", async () => {
        await answer("phone", "answered");
        expect((await answer("phone", "ended")).kind).toBe("changed");
        expect(await store.getCall("acc1", "ev1")).toBeNull();
        expect(await answer("phone", "ended")).toEqual({ kind: "repeat", status: "ended" });
        expect(await answer("laptop", "acknowledged")).toEqual({ kind: "already_ended", status: "ended" });
        expect(await answer("laptop", "answered")).toEqual({ kind: "already_answered", status: "ended" });
      });

      it.each(["rejected", "acknowledged", "ended"] as const)(
        "ends a ringing call when %s",
        async (status) => {
          expect(await answer("phone", status)).toMatchObject({ kind: "changed", status });
          expect(await store.getCall("acc1", "ev1")).toBeNull();
        },
      );

      it("does not know a call of another account", async () => {
        const outcome = await store.setCallStatus({
          accountId: "acc1",
          eventId: "nope",
          deviceId: "phone",
          status: "answered",
          now: T0,
          answeredExpiresAt: T0,
        });
        expect(outcome).toEqual({ kind: "not_found" });
      });
    });

    describe("stream", () => {
      beforeEach(async () => {
        await account("acc1", device("pc"), device("phone", "phone"));
        await store.appendEvent(event());
        await store.appendEvent(event({ eventId: "ev2" }));
        await answer("phone", "rejected", "ev1");
      });

      it("replays what came after a seq, leaving out erased calls but not their status change", async () => {
        const snapshot = await store.streamSince("acc1", 0);
        expect(snapshot.headSeq).toBe(3);
        expect(snapshot.entries.map((e) => [e.seq, e.kind])).toEqual([
          [2, "call"],
          [3, "call-status"],
        ]);
        expect((await store.streamSince("acc1", 2)).entries.map((e) => e.seq)).toEqual([3]);
        expect((await store.streamSince("acc1", 3)).entries).toEqual([]);
      });

      it("lists the calls still open, answered ones included", async () => {
        await store.appendEvent(event({ eventId: "ev3" }));
        await answer("phone", "answered", "ev3");
        const snapshot = await store.pendingCalls("acc1");
        expect(
          snapshot.entries.map((e) => (e.kind === "call" ? [e.event.eventId, e.event.status] : [])),
        ).toEqual([
          ["ev2", "pending"],
          ["ev3", "answered"],
        ]);
        expect(snapshot.headSeq).toBe(5);
      });

      it("reads the stream and the open calls a page at a time, each page what the whole read holds there", async () => {
        for (const eventId of ["ev3", "ev4", "ev5", "ev6"]) await store.appendEvent(event({ eventId }));
        for (const eventId of ["ev2", "ev4", "ev6"]) {
          await store.recordDelivery({
            accountId: "acc1",
            eventId,
            deviceId: "phone",
            outcome: "shown",
            now: T0,
          });
        }
        await answer("phone", "ended", "ev4");
        await answer("phone", "answered", "ev5");
        const inPages = async (read: (afterSeq: number) => Promise<StreamPage>, limit: number) => {
          const seqs: number[] = [];
          let afterSeq = 0;
          for (;;) {
            const page = await read(afterSeq);
            expect(page.entries.length).toBeLessThanOrEqual(limit);
            expect(page.throughSeq).toBeGreaterThan(afterSeq);
            seqs.push(...page.entries.map((entry) => entry.seq));
            if (page.throughSeq >= page.headSeq) return { seqs, headSeq: page.headSeq };
            afterSeq = page.throughSeq;
          }
        };
        const whole = await store.streamSince("acc1", 0);
        const open = await store.pendingCalls("acc1");
        for (const limit of [1, 2, 3, 100]) {
          expect(await inPages((after) => store.streamPage("acc1", after, limit), limit)).toEqual({
            seqs: whole.entries.map((entry) => entry.seq),
            headSeq: whole.headSeq,
          });
          expect(await inPages((after) => store.pendingCallsPage("acc1", after, limit), limit)).toEqual({
            seqs: open.entries.map((entry) => entry.seq),
            headSeq: open.headSeq,
          });
        }
        expect((await store.streamPage("acc1", 2, 2)).entries).toEqual(
          whole.entries.filter((entry) => entry.seq > 2).slice(0, 2),
        );
        // Bounded by the calls' sealed bytes as well: a page takes as many calls as fit (always its first).
        const sealedBytes = "e2e1.k.iv.ct".length;
        for (const calls of [1, 2]) {
          const maxBytes = calls * sealedBytes + sealedBytes - 1;
          const reads = [
            { read: (after: number) => store.streamPage("acc1", after, 100, maxBytes), all: whole },
            { read: (after: number) => store.pendingCallsPage("acc1", after, 100, maxBytes), all: open },
          ];
          for (const { read, all } of reads) {
            expect(await inPages(read, 100)).toEqual({
              seqs: all.entries.map((entry) => entry.seq),
              headSeq: all.headSeq,
            });
            let afterSeq = 0;
            for (let page = await read(0); ; page = await read(afterSeq)) {
              expect(page.entries.filter((entry) => entry.kind === "call").length).toBeLessThanOrEqual(calls);
              if (page.throughSeq >= page.headSeq) break;
              afterSeq = page.throughSeq;
            }
          }
        }
      });
    });

    describe("expiry", () => {
      beforeEach(async () => {
        await account("acc1", device("pc"), device("phone", "phone"));
      });

      it("expires an unanswered call at its time and erases it", async () => {
        await store.appendEvent(event({ expiresAt: T0 + MINUTE_MS }));
        expect(await store.expireDue(T0 + MINUTE_MS - 1)).toEqual([]);
        const expired = await store.expireDue(T0 + MINUTE_MS);
        expect(expired).toMatchObject([
          { kind: "call-status", seq: 2, change: { status: "expired", deviceId: null } },
        ]);
        expect(await store.getCall("acc1", "ev1")).toBeNull();
        expect(await store.expireDue(T0 + 2 * MINUTE_MS)).toEqual([]);
      });

      it("gives an answered call its own bound", async () => {
        await store.appendEvent(event({ expiresAt: T0 + MINUTE_MS / 2 }));
        await answer("phone", "answered");
        expect(await store.expireDue(T0 + 119 * MINUTE_MS)).toEqual([]);
        expect(await store.expireDue(T0 + 120 * MINUTE_MS)).toHaveLength(1);
      });

      it("fails a reply nobody picked up in time", async () => {
        await store.appendEvent(event());
        await store.enqueueReply(contractReply({ expiresAt: T0 + MINUTE_MS }));
        const expired = await store.expireDue(T0 + MINUTE_MS);
        expect(expired.find((e) => e.kind === "reply-status")).toMatchObject({
          change: { replyId: "r1", status: "failed", plaintextReason: "expired", sealedReason: null },
        });
        expect(await store.queuedReplies("pc")).toEqual([]);
      });

      it("forgets ended calls after the retention time", async () => {
        await store.appendEvent(event());
        await answer("phone", "rejected");
        await store.pruneBefore(T0 + 2 * MINUTE_MS);
        expect((await store.streamSince("acc1", 0)).entries).toEqual([]);
        expect((await store.appendEvent(event())).kind).toBe("created");
      });
    });

    describe("replies", () => {
      const reply = contractReply();
      const settle = (deviceId: string, status: "delivered" | "failed" = "delivered") =>
        store.settleReply({
          deviceId,
          replyId: "r1",
          status,
          sealedReason: null,
          plaintextReason: null,
          now: T0,
        });

      beforeEach(async () => {
        await account("acc1", device("pc"), device("laptop"), device("phone", "phone"));
        await store.appendEvent(event());
      });

      it("queues a reply for the computer that sent the event, even after the call ended", async () => {
        await answer("phone", "ended");
        const outcome = await store.enqueueReply(reply);
        expect(outcome).toMatchObject({
          kind: "created",
          toDeviceId: "pc",
          status: "queued",
          entries: [{ seq: 3, change: { replyId: "r1", eventId: "ev1", status: "queued" } }],
        });
        expect(await store.queuedReplies("pc")).toEqual([
          { replyId: "r1", eventId: "ev1", sealed: "e2e1.reply" },
        ]);
        expect(await store.queuedReplies("laptop")).toEqual([]);
      });

      it("is idempotent on the reply id and refuses it for another event", async () => {
        await store.appendEvent(event({ eventId: "ev2" }));
        await store.enqueueReply(reply);
        expect(await store.enqueueReply(reply)).toEqual({
          kind: "repeat",
          toDeviceId: "pc",
          status: "queued",
        });
        expect(await store.enqueueReply({ ...reply, eventId: "ev2" })).toEqual({ kind: "conflict" });
        expect(await store.enqueueReply({ ...reply, replyId: "r2", eventId: "unknown" })).toEqual({
          kind: "not_found",
        });
        expect(await store.queuedReplies("pc")).toHaveLength(1);
      });

      it("is settled once, by its own computer only, and then erased", async () => {
        await store.enqueueReply(reply);
        expect(await settle("laptop")).toBeNull();
        const entry = await settle("pc");
        expect(entry).toMatchObject({ change: { replyId: "r1", status: "delivered" } });
        expect(await settle("pc", "failed")).toBeNull();
        expect(await store.queuedReplies("pc")).toEqual([]);
        expect(await store.enqueueReply(reply)).toMatchObject({ kind: "repeat", status: "delivered" });
      });

      it("fails a reply at once when its computer was removed, and fails queued ones on removal", async () => {
        await store.enqueueReply(reply);
        const removal = await store.removeDevice({ accountId: "acc1", deviceId: "pc", now: T0 });
        expect(removal.entries).toMatchObject([
          { change: { replyId: "r1", status: "failed", plaintextReason: "computer removed" } },
        ]);
        const late = await store.enqueueReply({ ...reply, replyId: "r2" });
        expect(late).toMatchObject({ kind: "created", status: "failed" });
        expect(await store.queuedReplies("pc")).toEqual([]);
      });

      it("holds the account to its queued replies and its sealed bytes (calls' included), until replies settle", async () => {
        // The call holds 12 bytes ("e2e1.k.iv.ct"); each reply below 10 ("e2e1.reply").
        const limits = { queuedMax: 2, sealedBytesMax: 12 + 10 + 10 };
        const queue = (replyId: string, sealed = "e2e1.reply") =>
          store.enqueueReply({ ...reply, replyId, sealed, limits });
        expect((await queue("r1")).kind).toBe("created");
        // Bytes: 11 more would pass 32.
        expect(await queue("big", "e2e1.reply!")).toEqual({
          kind: "full",
          usage: { openCalls: 1, queuedReplies: 1, sealedBytes: 22 },
        });
        expect((await queue("r2")).kind).toBe("created");
        expect(await store.accountUsage("acc1")).toEqual({ openCalls: 1, queuedReplies: 2, sealedBytes: 32 });
        // Count: a third is refused even when the call's bytes are freed; nothing of it is stored.
        await answer("phone", "rejected");
        expect(await queue("r3")).toMatchObject({
          kind: "full",
          usage: { queuedReplies: 2, sealedBytes: 20 },
        });
        expect((await store.queuedReplies("pc")).map((queued) => queued.replyId)).toEqual(["r1", "r2"]);
        // A repeat is answered as one whatever the quota.
        expect(await queue("r1")).toEqual({ kind: "repeat", toDeviceId: "pc", status: "queued" });
        // A settled reply frees its share.
        await settle("pc");
        expect(await store.accountUsage("acc1")).toEqual({ openCalls: 0, queuedReplies: 1, sealedBytes: 10 });
        expect((await queue("r3")).kind).toBe("created");
        expect((await queue("r4")).kind).toBe("full");
        // So does an expired one.
        await store.expireDue(T0 + 60 * MINUTE_MS);
        expect(await store.accountUsage("acc1")).toEqual({ openCalls: 0, queuedReplies: 0, sealedBytes: 0 });
        expect((await queue("r4")).kind).toBe("created");
      });

      it("lets no concurrent replies overshoot the account's quota, nor a reply to a removed computer count", async () => {
        const limits = { queuedMax: 3, sealedBytesMax: ROOMY_REPLY_LIMITS.sealedBytesMax };
        const outcomes = await Promise.all(
          Array.from({ length: 12 }, (_, index) =>
            store.enqueueReply({ ...reply, replyId: `r${index}`, limits }),
          ),
        );
        expect(outcomes.filter((outcome) => outcome.kind === "created")).toHaveLength(3);
        expect(outcomes.filter((outcome) => outcome.kind === "full")).toHaveLength(9);
        expect(await store.queuedReplies("pc")).toHaveLength(3);
        expect((await store.accountUsage("acc1")).queuedReplies).toBe(3);
        // Removing the computer fails its replies: their shares are free, and a late reply to it stores nothing.
        await store.removeDevice({ accountId: "acc1", deviceId: "pc", now: T0 });
        expect((await store.accountUsage("acc1")).queuedReplies).toBe(0);
        const full = { queuedMax: 0, sealedBytesMax: 0 };
        expect(await store.enqueueReply({ ...reply, replyId: "late", limits: full })).toMatchObject({
          kind: "created",
          status: "failed",
        });
      });
    });
  });
  describePushStoreContract(name, makeStore);
  describeDeliveryStoreContract(name, makeStore);
  describeFleetStoreContract(name, makeStore);
}
