import { FLEET_UPDATE_MIN_INTERVAL_MS } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FleetPutOutcome } from "./fleet-put.js";
import { FleetSender } from "./fleet-sender.js";

function senderAnswering(...outcomes: FleetPutOutcome[]) {
  const sentAt: number[] = [];
  const lines: string[] = [];
  const sender = new FleetSender({
    send: async () => {
      sentAt.push(Date.now());
      return outcomes.shift() ?? { kind: "stored" };
    },
    log: (line) => lines.push(line),
  });
  return { sender, sentAt, lines };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("FleetSender", () => {
  it("puts the first change at once, then at most one put per interval with the changes in between together", async () => {
    const { sender, sentAt } = senderAnswering();
    sender.changed();
    sender.changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(sentAt).toEqual([0]);

    for (let ms = 0; ms < FLEET_UPDATE_MIN_INTERVAL_MS - 1; ms += 100) {
      sender.changed();
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(sentAt).toEqual([0, FLEET_UPDATE_MIN_INTERVAL_MS]);
    await vi.advanceTimersByTimeAsync(10 * FLEET_UPDATE_MIN_INTERVAL_MS);
    expect(sentAt).toEqual([0, FLEET_UPDATE_MIN_INTERVAL_MS]);
    expect(sender.isPending).toBe(false);
  });

  it("tries a put the relay did not take again later, after its Retry-After, and as soon as the interval allows when the link is back", async () => {
    const { sender, sentAt, lines } = senderAnswering(
      { kind: "retry", reason: "429 rate_limited", retryAfterMs: 20_000 },
      { kind: "retry", reason: "ECONNREFUSED" },
    );
    sender.changed();
    await vi.advanceTimersByTimeAsync(19_999);
    expect(sentAt).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sentAt).toEqual([0, 20_000]);
    expect(lines[0]).toContain("429 rate_limited");

    // The retry would wait 3 s, 6 s, 12 s...; the link coming back sends it as soon as the interval allows.
    await vi.advanceTimersByTimeAsync(1000);
    sender.linkOpened();
    await vi.advanceTimersByTimeAsync(FLEET_UPDATE_MIN_INTERVAL_MS - 1000);
    expect(sentAt).toEqual([0, 20_000, 20_000 + FLEET_UPDATE_MIN_INTERVAL_MS]);
    expect(sender.isPending).toBe(false);
  });

  it("puts the latest state again when the link reopens, even with nothing new", async () => {
    const { sender, sentAt } = senderAnswering();
    sender.linkOpened();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(60_000);
    sender.linkOpened();
    await vi.advanceTimersByTimeAsync(0);
    expect(sentAt).toEqual([0, 60_000]);
  });

  it("logs a refused state once and sends the next change as usual", async () => {
    const { sender, sentAt, lines } = senderAnswering({ kind: "refused", reason: "400 invalid_request" });
    sender.changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(lines).toEqual(["fleet: the relay refused this computer's agent state (400 invalid_request)"]);
    await vi.advanceTimersByTimeAsync(60_000);
    sender.changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(sentAt).toEqual([0, 60_000]);
  });
});
