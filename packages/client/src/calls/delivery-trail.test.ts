import type { CallDelivery } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { recordFor } from "../../test/fixtures.js";
import { CORE_TEXTS } from "../i18n/texts/core.js";
import { withAnswer, withDelivery } from "./call-deliveries.js";
import type { CallRecord, CallStatusFields } from "./call-record.js";
import { deliverySteps, deliveryTrailText } from "./delivery-trail.js";

const PHONE = "dev_phone";
const LAPTOP = "dev_laptop";
/** The time of day in UTC, so the expected text does not depend on the machine's time zone. */
const clock = (iso: string) => iso.slice(11, 19);

function at(time: string): string {
  return `2026-03-02T${time}.000Z`;
}

function delivery(deviceId: string, outcome: CallDelivery["outcome"], time: string): CallDelivery {
  const deviceName = deviceId === PHONE ? "Phone" : "Laptop";
  return { seq: 1, eventId: "e1", deviceId, deviceName, outcome, at: at(time) };
}

function record(status: Partial<CallStatusFields>, deliveries: CallDelivery[]): CallRecord {
  return deliveries.reduce(
    (current, next) => withDelivery(current, next, LAPTOP),
    recordFor({ eventId: "e1" }, status),
  );
}

function trail(call: CallRecord, language: "en" | "zh" = "en", thisDevice = LAPTOP): string {
  return deliveryTrailText(deliverySteps(call, thisDevice), CORE_TEXTS[language], clock);
}

describe("the history's delivery line", () => {
  it("lists each device's outcomes in time order, then who answered, with the relay's device names", () => {
    const answered = withAnswer(
      record({ state: "ended", outcome: "answered-elsewhere" }, [
        delivery(PHONE, "shown", "14:02:11"),
        delivery(PHONE, "pushed", "14:02:10"),
        delivery(LAPTOP, "opened", "14:02:19"),
      ]),
      { seq: 9, eventId: "e1", status: "answered", deviceId: LAPTOP, at: at("14:02:20") },
    );
    expect(trail(answered, "en", PHONE)).toBe(
      "Pushed to Phone 14:02:10 · shown on Phone 14:02:11 · opened on Laptop 14:02:19 · answered on Laptop 14:02:20",
    );
  });

  it("says the same in Chinese", () => {
    const call = withAnswer(
      record({ state: "ended", outcome: "answered-elsewhere" }, [delivery(PHONE, "pushed", "14:02:10")]),
      { seq: 9, eventId: "e1", status: "answered", deviceId: PHONE, at: at("14:02:20") },
    );
    expect(trail(call, "zh")).toBe("已推送到 Phone 14:02:10 · 已在 Phone 上接听 14:02:20");
  });

  it("keeps steps within the same second in the order a call reaches them", () => {
    const call = record({ state: "missed", missedReason: "learned-late" }, [
      delivery(PHONE, "shown", "09:00:00"),
      delivery(PHONE, "pushed", "09:00:00"),
    ]);
    expect(trail(call)).toBe("Pushed to Phone 09:00:00 · shown on Phone 09:00:00");
    // This device stamps its answer; the relay records "opened" when the report arrives, a moment later.
    const answeredHere = record(
      { state: "ended", outcome: "answered", answeredAt: "2026-03-02T10:00:05.100Z" },
      [{ ...delivery(LAPTOP, "opened", "10:00:05"), at: "2026-03-02T10:00:05.400Z" }],
    );
    expect(trail(answeredHere)).toBe("Opened on Laptop 10:00:05 · answered on Laptop 10:00:05");
  });

  it("names this device's own answer by its recorded name, or as this device when no outcome names it", () => {
    const named = record({ state: "ended", outcome: "answered", answeredAt: at("10:00:05") }, [
      delivery(LAPTOP, "shown", "10:00:01"),
    ]);
    expect(trail(named)).toBe("Shown on Laptop 10:00:01 · answered on Laptop 10:00:05");
    const unnamed = record({ state: "ended", outcome: "answered", answeredAt: at("10:00:05") }, []);
    expect(trail(unnamed)).toBe("Answered on this device 10:00:05");
  });

  it("says another device answered, without a time, when the relay did not name the device", () => {
    const call = record({ state: "ended", outcome: "answered-elsewhere" }, [
      delivery(PHONE, "shown", "10:00:01"),
    ]);
    expect(trail(call)).toBe("Shown on Phone 10:00:01 · answered on another device");
    expect(trail(call, "zh")).toBe("已在 Phone 上显示 10:00:01 · 已在 其他设备 上接听");
  });

  it("names a device whose name does not open by its kind, and this device as this device", () => {
    const unreadable = (deviceId: string, outcome: CallDelivery["outcome"], time: string) => ({
      ...delivery(deviceId, outcome, time),
      deviceName: null,
      deviceKind: deviceId === PHONE ? ("phone" as const) : ("computer" as const),
    });
    const call = withAnswer(
      [unreadable(PHONE, "shown", "10:00:01"), unreadable(LAPTOP, "opened", "10:00:02")].reduce(
        (current, next) => withDelivery(current, next, LAPTOP),
        recordFor({ eventId: "e1" }, { state: "ended", outcome: "answered-elsewhere" }),
      ),
      { seq: 9, eventId: "e1", status: "answered", deviceId: PHONE, at: at("10:00:05") },
    );
    expect(trail(call)).toBe(
      "Shown on a phone 10:00:01 · opened on this device 10:00:02 · answered on a phone 10:00:05",
    );
    expect(trail(call, "zh")).toBe(
      "已在 手机 上显示 10:00:01 · 已在 本设备 上打开 10:00:02 · 已在 手机 上接听 10:00:05",
    );
  });

  it("never shows ciphertext that a record kept by an older version holds as the device's name", () => {
    const sealedName = "e2e1.0123456789abcdef.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBB";
    const call = record({ state: "ended", outcome: "answered-elsewhere" }, [
      { ...delivery(PHONE, "shown", "10:00:01"), deviceName: sealedName },
    ]);
    expect(trail(call)).toBe("Shown on another device 10:00:01 · answered on another device");
    expect(trail(call)).not.toContain("e2e1");
  });

  it("is empty for a call with no outcomes and no answer (an older record)", () => {
    const call = recordFor({ eventId: "e1" }, { state: "ended", outcome: "rejected" });
    expect(deliverySteps(call, LAPTOP)).toEqual([]);
    expect(trail(call)).toBe("");
  });
});
