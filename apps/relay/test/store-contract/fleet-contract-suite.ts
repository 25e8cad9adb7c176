import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NewFleetState, RelayStore } from "../../src/store/store.js";
import { contractDevice, MINUTE_MS, ROOMY_LIMITS, T0 } from "./contract-fixtures.js";

const INTERVAL_MS = 1000;

/** Account acc1 with computers pc1 and pc2 and a phone; account acc2 with computer pc3. */
async function twoAccounts(store: RelayStore): Promise<void> {
  await store.createAccount({ accountId: "acc1", device: contractDevice("pc1", "computer"), now: T0 });
  for (const [id, kind] of [
    ["pc2", "computer"],
    ["phone1", "phone"],
  ] as const) {
    await store.createPairingCode({
      codeHash: `c-${id}`,
      accountId: "acc1",
      createdBy: "pc1",
      expiresAt: T0 + MINUTE_MS,
      now: T0,
    });
    await store.redeemPairingCode({
      codeHash: `c-${id}`,
      device: contractDevice(id, kind),
      now: T0,
      limits: ROOMY_LIMITS,
    });
  }
  await store.createAccount({ accountId: "acc2", device: contractDevice("pc3", "computer"), now: T0 });
}

function state(computerId: string, sealed: string, now: number, accountId = "acc1"): NewFleetState {
  return { accountId, computerId, sealed, now, minIntervalMs: INTERVAL_MS };
}

/** Fleet states: the latest per computer, at most one per interval, gone with the computer. */
export function describeFleetStoreContract(name: string, makeStore: () => Promise<RelayStore>): void {
  describe(`RelayStore contract: ${name}: fleet states`, () => {
    let store: RelayStore;
    beforeEach(async () => {
      store = await makeStore();
      await twoAccounts(store);
    });
    afterEach(async () => {
      await store.close();
    });

    it("keeps the latest state of each computer, for its account only", async () => {
      expect(await store.putFleetState(state("pc1", "e2e1.a", T0))).toEqual({
        kind: "stored",
        record: { computerId: "pc1", sealed: "e2e1.a", receivedAt: T0 },
      });
      await store.putFleetState(state("pc1", "e2e1.b", T0 + INTERVAL_MS));
      await store.putFleetState(state("pc2", "e2e1.c", T0));
      await store.putFleetState(state("pc3", "e2e1.d", T0, "acc2"));
      expect(await store.fleetStates("acc1")).toEqual([
        { computerId: "pc1", sealed: "e2e1.b", receivedAt: T0 + INTERVAL_MS },
        { computerId: "pc2", sealed: "e2e1.c", receivedAt: T0 },
      ]);
      expect(await store.fleetState("acc1", "pc2")).toEqual({
        computerId: "pc2",
        sealed: "e2e1.c",
        receivedAt: T0,
      });
      expect(await store.fleetState("acc1", "pc3")).toBeNull();
      expect(await store.fleetStates("acc2")).toEqual([
        { computerId: "pc3", sealed: "e2e1.d", receivedAt: T0 },
      ]);
    });

    it("takes one state per interval per computer, and says from when the next is taken", async () => {
      await store.putFleetState(state("pc1", "e2e1.a", T0));
      expect(await store.putFleetState(state("pc1", "e2e1.b", T0 + 300))).toEqual({
        kind: "too-soon",
        retryAt: T0 + INTERVAL_MS,
      });
      expect((await store.putFleetState(state("pc2", "e2e1.c", T0 + 300))).kind).toBe("stored");
      expect((await store.fleetState("acc1", "pc1"))?.sealed).toBe("e2e1.a");
      expect((await store.putFleetState(state("pc1", "e2e1.d", T0 + INTERVAL_MS))).kind).toBe("stored");
    });

    it("lets one of several puts of one computer at once in", async () => {
      const outcomes = await Promise.all(
        ["e2e1.x", "e2e1.y", "e2e1.z"].map((sealed) => store.putFleetState(state("pc1", sealed, T0))),
      );
      expect(outcomes.filter((outcome) => outcome.kind === "stored")).toHaveLength(1);
      const stored = outcomes.find((outcome) => outcome.kind === "stored");
      expect((await store.fleetState("acc1", "pc1"))?.sealed).toBe(
        stored?.kind === "stored" ? stored.record.sealed : undefined,
      );
    });

    it("forgets a computer's state when the computer is removed", async () => {
      await store.putFleetState(state("pc1", "e2e1.a", T0));
      await store.putFleetState(state("pc2", "e2e1.b", T0));
      expect((await store.removeDevice({ accountId: "acc1", deviceId: "pc2", now: T0 })).removed).toBe(true);
      expect((await store.fleetStates("acc1")).map((record) => record.computerId)).toEqual(["pc1"]);
      expect(await store.fleetState("acc1", "pc2")).toBeNull();
    });
  });
}
