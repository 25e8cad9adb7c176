import type { CallDelivery, DeviceDeliveryOutcome } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RelayError } from "../relay/relay-error.js";
import { DeliveryReporter, type DeliveryReportOutcome } from "./delivery-reporter.js";

const AT = "2026-03-02T10:00:02.000Z";

function recorded(eventId: string, outcome: DeviceDeliveryOutcome): CallDelivery {
  return { seq: 5, eventId, deviceId: "dev_laptop", deviceName: "Laptop", outcome, at: AT };
}

function outcomesLog() {
  const log: { eventId: string; outcome: DeviceDeliveryOutcome; result: DeliveryReportOutcome }[] = [];
  const onOutcome = (eventId: string, outcome: DeviceDeliveryOutcome, result: DeliveryReportOutcome) =>
    log.push({ eventId, outcome, result });
  return { log, onOutcome };
}

describe("delivery reports to the relay", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends a report once, and hands the relay's record back", async () => {
    const send = vi.fn(async (eventId: string, outcome: DeviceDeliveryOutcome) => recorded(eventId, outcome));
    const { log, onOutcome } = outcomesLog();
    const reporter = new DeliveryReporter(send, onOutcome);
    await reporter.report("e1", "shown");
    await reporter.flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(log).toEqual([
      { eventId: "e1", outcome: "shown", result: { kind: "reported", delivery: recorded("e1", "shown") } },
    ]);
  });

  it("does not hold up its caller: report() returns before the relay answers", async () => {
    let answer: (delivery: CallDelivery) => void = () => undefined;
    const send = vi.fn(() => new Promise<CallDelivery>((resolve) => (answer = resolve)));
    const { log, onOutcome } = outcomesLog();
    const reporter = new DeliveryReporter(send, onOutcome);
    const reporting = reporter.report("e1", "opened");
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(1);
    expect(log).toEqual([]);
    answer(recorded("e1", "opened"));
    await reporting;
    expect(log).toHaveLength(1);
  });

  it("retries a report the relay could not take, on the backoff schedule, until it is recorded", async () => {
    const attempts: number[] = [];
    const send = vi.fn(async (eventId: string, outcome: DeviceDeliveryOutcome) => {
      attempts.push(Date.now());
      if (attempts.length === 1) throw new RelayError(null, null, "offline");
      if (attempts.length === 2) throw new RelayError(503, null, "unavailable");
      return recorded(eventId, outcome);
    });
    const { log, onOutcome } = outcomesLog();
    const reporter = new DeliveryReporter(send, onOutcome, [1_000, 4_000]);
    const start = Date.now();
    await reporter.report("e1", "shown");
    await vi.advanceTimersByTimeAsync(999);
    expect(send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(attempts.map((at) => at - start)).toEqual([0, 1_000, 5_000]);
    expect(log.map((entry) => entry.result.kind)).toEqual(["reported"]);
  });

  it("tries every pending report at once when flushed (the stream connected again)", async () => {
    let isOnline = false;
    const send = vi.fn(async (eventId: string, outcome: DeviceDeliveryOutcome) => {
      if (!isOnline) throw new RelayError(429, "rate_limited", "slow down");
      return recorded(eventId, outcome);
    });
    const { log, onOutcome } = outcomesLog();
    const reporter = new DeliveryReporter(send, onOutcome, [60_000]);
    await reporter.reportAll([
      { eventId: "e1", outcome: "shown" },
      { eventId: "e1", outcome: "opened" },
    ]);
    expect(send).toHaveBeenCalledTimes(1);
    isOnline = true;
    await reporter.flush();
    expect(log.map((entry) => `${entry.eventId} ${entry.outcome}`)).toEqual(["e1 shown", "e1 opened"]);
    // Settled reports are not sent again by a later flush.
    await reporter.flush();
    expect(send).toHaveBeenCalledTimes(3);
  });

  it("queues a repeat of a pending report only once", async () => {
    let isOnline = false;
    const send = vi.fn(async (eventId: string, outcome: DeviceDeliveryOutcome) => {
      if (!isOnline) throw new RelayError(null, null, "offline");
      return recorded(eventId, outcome);
    });
    const { log, onOutcome } = outcomesLog();
    const reporter = new DeliveryReporter(send, onOutcome, [60_000]);
    await reporter.report("e1", "shown");
    isOnline = true;
    await reporter.report("e1", "shown");
    expect(send).toHaveBeenCalledTimes(2);
    expect(log).toHaveLength(1);
  });

  it("gives up on a call the relay no longer knows (404), and on any other refusal, without retrying", async () => {
    const send = vi.fn(async (eventId: string) => {
      if (eventId === "gone") throw new RelayError(404, "call_not_found", "The call has ended.");
      throw new RelayError(400, "invalid_request", "bad outcome");
    });
    const { log, onOutcome } = outcomesLog();
    const reporter = new DeliveryReporter(send, onOutcome, [10]);
    await reporter.reportAll([
      { eventId: "gone", outcome: "shown" },
      { eventId: "refused", outcome: "opened" },
    ]);
    await vi.advanceTimersByTimeAsync(1_000);
    await reporter.flush();
    expect(send).toHaveBeenCalledTimes(2);
    expect(log.map((entry) => entry.result)).toEqual([{ kind: "abandoned" }, { kind: "abandoned" }]);
  });

  it("stops for good when the device was removed (401)", async () => {
    const send = vi.fn(async () => {
      throw new RelayError(401, "device_removed", "removed");
    });
    const { log, onOutcome } = outcomesLog();
    const reporter = new DeliveryReporter(send, onOutcome, [10]);
    await reporter.reportAll([
      { eventId: "e1", outcome: "shown" },
      { eventId: "e2", outcome: "shown" },
    ]);
    await reporter.report("e3", "opened");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(send).toHaveBeenCalledTimes(1);
    expect(log.map((entry) => entry.result)).toEqual([{ kind: "device-removed" }]);
  });
});
