import { generateKey } from "@ringback/e2e-crypto";
import { eventually } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeCallRelay, startFakeCallRelay } from "../../test/fake-call-relay.js";
import { type FirstDecisionComputer, firstDecisionComputer } from "../../test/first-decision-computer.js";
import { ASK_DIGEST, askFor, needsYouEvent } from "../../test/fixtures.js";
import { ringingCall } from "../calls/call-machine.js";
import { DecisionError } from "../calls/needs-you.js";
import { needsYouStatus } from "../calls/needs-you-view.js";
import { ALWAYS_RING } from "../ring-schedule/ring-schedule.js";
import { createMemoryStore } from "../storage/memory-key-value.js";
import { callRecordKey } from "../storage/storage-keys.js";
import { CallCenter } from "./call-center.js";

const key = generateKey();
let relay: FakeCallRelay;
const centers: CallCenter[] = [];
/** The computer: the first decision for an ask is taken, any other refused. */
let computer: FirstDecisionComputer;

beforeEach(async () => {
  computer = firstDecisionComputer(key);
  relay = await startFakeCallRelay(computer.settle);
});

afterEach(async () => {
  for (const center of centers.splice(0)) center.stop();
  await relay.close();
});

async function device(deviceId: string) {
  const store = createMemoryStore();
  const center = new CallCenter({
    store,
    pairing: () => ({
      identity: { accountId: "a1", deviceId, deviceToken: `token-${deviceId}`, serverUrl: relay.origin },
      key,
    }),
    schedule: () => ALWAYS_RING,
    onDeviceRemoved: () => undefined,
  });
  centers.push(center);
  await center.load();
  center.connect();
  await eventually(() => center.view.connection === "open");
  return { center, store };
}

async function raiseAsk(eventId: string): Promise<void> {
  const occurredAt = new Date();
  relay.publish(await needsYouEvent(key, eventId, occurredAt, askFor(occurredAt), "computer"));
}

describe("a decision on a needs-you call, from a companion", () => {
  it("answers first, then sends the decision sealed for the computer; the other device learns who decided", async () => {
    const phone = await device("phone");
    const tablet = await device("tablet");
    await raiseAsk("needs_1");
    await eventually(() => ringingCall(phone.center.view.calls)?.eventId === "needs_1");
    await eventually(() => ringingCall(tablet.center.view.calls)?.eventId === "needs_1");

    phone.center.answer("needs_1");
    await phone.center.decide("needs_1", "deny", "  not on main  ");
    expect(relay.statusWrites[0]).toBe("phone needs_1 answered");
    expect(computer.opened).toEqual([
      expect.objectContaining({
        eventId: "needs_1",
        toolInputDigest: ASK_DIGEST,
        verdict: "deny",
        reason: "not on main",
      }),
    ]);
    await eventually(
      () => needsYouStatus(phone.center.view.calls.records.needs_1!, "phone", new Date())?.kind === "decided",
    );
    // Kept with the call, on the device's storage.
    expect((await phone.store.get<{ verdict?: unknown }>(callRecordKey("needs_1")))?.verdict).toMatchObject({
      verdict: "deny",
      reason: "not on main",
    });
    // Once sent and not refused, it is not sent again.
    await expect(phone.center.decide("needs_1", "allow")).rejects.toEqual(
      new DecisionError("already-decided"),
    );

    await eventually(() => {
      const status = needsYouStatus(tablet.center.view.calls.records.needs_1!, "tablet", new Date());
      return status?.kind === "decided-elsewhere" && status.isDelivered;
    });
    await expect(tablet.center.decide("needs_1", "allow")).rejects.toEqual(new DecisionError("not-in-call"));
    // Words are no decision: a reply is not sent on a needs-you call.
    await expect(phone.center.sendReply("needs_1", "go ahead")).rejects.toThrow(/asks for a decision/);
    expect(relay.replies).toHaveLength(1);
    expect(computer.opened).toHaveLength(1);
  });

  it("ends the call here and sends nothing when another device's answer reached the relay first", async () => {
    const phone = await device("phone");
    const tablet = await device("tablet");
    await raiseAsk("needs_2");
    await eventually(() => ringingCall(phone.center.view.calls)?.eventId === "needs_2");
    await eventually(() => ringingCall(tablet.center.view.calls)?.eventId === "needs_2");
    tablet.center.answer("needs_2");
    await eventually(() => relay.statusWrites.includes("tablet needs_2 answered"));
    // The phone answers before it heard of the tablet's answer: the relay refuses it, so the phone decides nothing.
    phone.center.answer("needs_2");
    await expect(phone.center.decide("needs_2", "allow")).rejects.toEqual(new DecisionError("not-in-call"));
    expect(relay.replies).toEqual([]);
  });
});
