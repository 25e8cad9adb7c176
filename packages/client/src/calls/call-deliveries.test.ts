import type { CallDelivery, CallStatusChange } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { recordFor, secondsAfter, T0 } from "../../test/fixtures.js";
import { CallRecordsStore } from "../storage/call-records.js";
import { createMemoryStore } from "../storage/memory-key-value.js";
import { pendingDeliveryReports, withAnswer, withDelivery, withDeliveryReport } from "./call-deliveries.js";
import { type CallRecord, mergeLaterStatus } from "./call-record.js";
import { mergeDeliveries } from "./delivery-entries.js";

const THIS_DEVICE = "dev_laptop";

function delivery(
  deviceId: string,
  outcome: CallDelivery["outcome"],
  seconds: number,
  deviceName = deviceId === THIS_DEVICE ? "Laptop" : "Phone",
): CallDelivery {
  return {
    seq: 100 + seconds,
    eventId: "e1",
    deviceId,
    deviceName,
    outcome,
    at: secondsAfter(T0, seconds).toISOString(),
  };
}

function entryOf({ deviceId, deviceName, outcome, at }: CallDelivery) {
  return { deviceId, deviceName, outcome, at };
}

/** A record as stored before delivery outcomes existed: no deliveries, report states or answering device. */
function olderRecord(): CallRecord {
  const record = recordFor({ eventId: "e1" }, { state: "ended", outcome: "answered-elsewhere" });
  const { deliveries: _d, deliveryReports: _r, answeredBy: _a, ...status } = record.status;
  return { ...record, status };
}

describe("a call's delivery outcomes in its record", () => {
  it("adds one entry per device and outcome, and a replayed frame changes nothing", () => {
    const pushed = delivery("dev_phone", "pushed", 1);
    const shown = delivery("dev_phone", "shown", 2);
    const once = withDelivery(withDelivery(olderRecord(), pushed, THIS_DEVICE), shown, THIS_DEVICE);
    expect(once.status.deliveries).toEqual([entryOf(pushed), entryOf(shown)]);
    expect(withDelivery(once, pushed, THIS_DEVICE)).toBe(once);
    expect(withDelivery(once, { ...shown, seq: 900 }, THIS_DEVICE)).toBe(once);
  });

  it("keeps the first time of an outcome: a later copy is ignored, an earlier one replaces it", () => {
    const first = delivery("dev_phone", "shown", 5);
    const record = withDelivery(olderRecord(), first, THIS_DEVICE);
    expect(withDelivery(record, delivery("dev_phone", "shown", 9), THIS_DEVICE)).toBe(record);
    const earlier = delivery("dev_phone", "shown", 3);
    expect(withDelivery(record, earlier, THIS_DEVICE).status.deliveries).toEqual([entryOf(earlier)]);
  });

  it("keeps the same outcome of two devices apart", () => {
    const phone = delivery("dev_phone", "shown", 1);
    const laptop = delivery(THIS_DEVICE, "shown", 2);
    const record = withDelivery(withDelivery(olderRecord(), phone, THIS_DEVICE), laptop, THIS_DEVICE);
    expect(record.status.deliveries).toEqual([entryOf(phone), entryOf(laptop)]);
  });

  it("merges only into the status fields, never into the event or what the user said", () => {
    const record: CallRecord = {
      ...olderRecord(),
      conversation: [{ role: "user", text: "Which tests?", at: T0.toISOString() }],
    };
    const merged = withDelivery(record, delivery("dev_phone", "opened", 4), THIS_DEVICE);
    const { status: _status, ...event } = merged;
    const { status: _before, ...eventBefore } = record;
    expect(event).toEqual(eventBefore);
  });

  it("settles this device's own report when its outcome comes back from the relay", () => {
    const pending = withDeliveryReport(olderRecord(), "shown", "pending");
    expect(pendingDeliveryReports(pending)).toEqual(["shown"]);
    const settled = withDelivery(pending, delivery(THIS_DEVICE, "shown", 2), THIS_DEVICE);
    expect(settled.status.deliveryReports).toEqual({ shown: "reported" });
    expect(pendingDeliveryReports(settled)).toEqual([]);
    // Another device's outcome, or the relay's own `pushed`, settles nothing of this device's.
    const other = withDelivery(pending, delivery("dev_phone", "shown", 2), THIS_DEVICE);
    expect(other.status.deliveryReports).toEqual({ shown: "pending" });
  });

  it("never turns a settled report back into a pending one", () => {
    const reported = withDeliveryReport(olderRecord(), "opened", "reported");
    expect(withDeliveryReport(reported, "opened", "pending")).toBe(reported);
    expect(withDeliveryReport(reported, "opened", "abandoned")).toBe(reported);
    const abandoned = withDeliveryReport(olderRecord(), "opened", "abandoned");
    expect(pendingDeliveryReports(abandoned)).toEqual([]);
  });

  it("records who answered from the relay's call-status, and nothing for other statuses", () => {
    const change: CallStatusChange = {
      seq: 7,
      eventId: "e1",
      status: "answered",
      deviceId: "dev_phone",
      at: secondsAfter(T0, 20).toISOString(),
    };
    const answered = withAnswer(olderRecord(), change);
    expect(answered.status.answeredBy).toEqual({ deviceId: "dev_phone", at: change.at });
    expect(withAnswer(answered, { ...change, seq: 8 })).toBe(answered);
    const expired = olderRecord();
    expect(withAnswer(expired, { ...change, status: "expired", deviceId: null })).toBe(expired);
  });
});

describe("older stored records and the merge of later statuses", () => {
  it("merges two devices' lists and report states without losing either side", () => {
    const stored = withDeliveryReport(
      withDelivery(olderRecord(), delivery("dev_phone", "pushed", 1), THIS_DEVICE),
      "shown",
      "reported",
    );
    const later = withDeliveryReport(
      withDelivery(olderRecord(), delivery("dev_phone", "shown", 2), THIS_DEVICE),
      "shown",
      "pending",
    );
    const merged = mergeLaterStatus(stored, later);
    expect(merged.status.deliveries?.map((entry) => entry.outcome)).toEqual(["pushed", "shown"]);
    expect(merged.status.deliveryReports).toEqual({ shown: "reported" });
  });

  it("adds no delivery fields when neither side has them", () => {
    const merged = mergeLaterStatus(olderRecord(), olderRecord());
    expect(Object.keys(merged.status)).not.toContain("deliveries");
    expect(Object.keys(merged.status)).not.toContain("deliveryReports");
    expect(mergeDeliveries(undefined, undefined)).toBeUndefined();
  });

  it("loads a record stored without the new fields and merges a delivery into it", async () => {
    const store = createMemoryStore();
    await store.set("call.e1", olderRecord());
    const records = new CallRecordsStore(store);
    const [loaded] = await records.loadAll();
    expect(loaded?.eventId).toBe("e1");
    const later = withDelivery(loaded!, delivery("dev_phone", "shown", 2), THIS_DEVICE);
    const { record } = await records.saveLaterStatus(later);
    expect(record.status.deliveries).toHaveLength(1);
    expect(pendingDeliveryReports(record)).toEqual([]);
    expect((await store.get<CallRecord>("call.e1"))?.status.deliveries).toHaveLength(1);
  });
});
