import type { CallStatusResult, CallStatusWrite } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RelayError } from "../relay/relay-error.js";
import { type StatusWriteOutcome, StatusWriter } from "./status-writer.js";

function written(eventId: string, status: CallStatusWrite, won = true): CallStatusResult {
  return { eventId, status, won };
}

describe("status write-back", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("retries a write the relay could not take, on the backoff schedule, until it is delivered", async () => {
    const attempts: number[] = [];
    const outcomes: StatusWriteOutcome[] = [];
    const write = vi.fn(async (eventId: string, status: CallStatusWrite) => {
      attempts.push(Date.now());
      if (attempts.length <= 2) throw new RelayError(attempts.length === 1 ? null : 503, null, "unavailable");
      return written(eventId, status);
    });
    const writer = new StatusWriter(write, (_, __, outcome) => outcomes.push(outcome), [1_000, 4_000]);
    const start = Date.now();
    await writer.enqueue("e1", "answered");
    expect(write).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(write).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(write).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(attempts.map((at) => at - start)).toEqual([0, 1_000, 5_000]);
    expect(outcomes).toEqual([{ kind: "written", result: written("e1", "answered") }]);
  });

  it("tries pending writes at once when asked (the stream reconnected)", async () => {
    let isOnline = false;
    const write = vi.fn(async (eventId: string, status: CallStatusWrite) => {
      if (!isOnline) throw new RelayError(null, null, "offline");
      return written(eventId, status);
    });
    const writer = new StatusWriter(write, () => undefined, [60_000]);
    await writer.enqueue("e1", "rejected");
    isOnline = true;
    await writer.flush();
    expect(write).toHaveBeenLastCalledWith("e1", "rejected");
    expect(write).toHaveBeenCalledTimes(2);
  });

  it("reports a lost answer (409 call_already_answered) without retrying", async () => {
    const outcomes: StatusWriteOutcome[] = [];
    const write = vi.fn(async () => {
      throw new RelayError(409, "call_already_answered", "Another device answered this call first.");
    });
    const writer = new StatusWriter(write, (_, __, outcome) => outcomes.push(outcome), [10]);
    await writer.enqueue("e1", "answered");
    await vi.advanceTimersByTimeAsync(100);
    expect(write).toHaveBeenCalledTimes(1);
    expect(outcomes).toEqual([{ kind: "answered-elsewhere" }]);
  });

  it("stops writing when the device was removed (401)", async () => {
    const outcomes: StatusWriteOutcome[] = [];
    const write = vi.fn(async () => {
      throw new RelayError(401, "device_removed", "removed");
    });
    const writer = new StatusWriter(write, (_, __, outcome) => outcomes.push(outcome));
    await writer.enqueue("e1", "answered");
    await writer.enqueue("e2", "ended");
    expect(outcomes[0]).toEqual({ kind: "device-removed" });
  });

  it("sends only the latest status of a call that was not delivered yet", async () => {
    let isOnline = false;
    const write = vi.fn(async (eventId: string, status: CallStatusWrite) => {
      if (!isOnline) throw new RelayError(null, null, "offline");
      return written(eventId, status);
    });
    const writer = new StatusWriter(write, () => undefined, [60_000]);
    await writer.enqueue("e1", "answered");
    isOnline = true;
    await writer.enqueue("e1", "ended");
    expect(write.mock.calls).toEqual([
      ["e1", "answered"],
      ["e1", "ended"],
    ]);
  });
});
