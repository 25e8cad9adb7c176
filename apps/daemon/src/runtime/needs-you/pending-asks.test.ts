import { afterEach, describe, expect, it, vi } from "vitest";
import { PendingAsks } from "./pending-asks.js";

const ask = (eventId: string) => ({
  eventId,
  toolInputDigest: "d".repeat(64),
  expiresAt: new Date(Date.now() + 1000),
});
const allow = { outcome: "decided" as const, verdict: "allow" as const, reason: null, decidedOn: "phone" };

afterEach(() => {
  vi.useRealTimers();
});

describe("PendingAsks", () => {
  it("answers the hook with the first decision only, and remembers it was decided", async () => {
    const asks = new PendingAsks();
    const held = asks.hold(ask("needs_a"), { waitMs: 1000 });

    expect(asks.decide("needs_a", allow)).toBe(true);
    expect(asks.decide("needs_a", { ...allow, verdict: "deny" })).toBe(false);

    expect(await held.answer).toEqual(allow);
    expect(asks.get("needs_a")).toBeUndefined();
    expect(asks.ended("needs_a")).toBe("decided");
  });

  it("expires an ask when its wait runs out; a decision after it is refused", async () => {
    vi.useFakeTimers();
    const asks = new PendingAsks();
    const held = asks.hold(ask("needs_b"), { waitMs: 1000 });

    await vi.advanceTimersByTimeAsync(1000);

    expect(await held.answer).toEqual({ outcome: "expired" });
    expect(asks.decide("needs_b", allow)).toBe(false);
    expect(asks.ended("needs_b")).toBe("stopped-waiting");
  });

  it("drops an ask whose hook went away, also one gone before it was held", async () => {
    const asks = new PendingAsks();
    const hook = new AbortController();
    const held = asks.hold(ask("needs_c"), { waitMs: 1000, signal: hook.signal });
    hook.abort();
    const gone = asks.hold(ask("needs_d"), { waitMs: 1000, signal: AbortSignal.abort() });

    expect(await held.answer).toEqual({ outcome: "expired" });
    expect(await gone.answer).toEqual({ outcome: "expired" });
    expect(asks.decide("needs_c", allow)).toBe(false);
    expect(asks.ended("needs_d")).toBe("stopped-waiting");
  });

  it("ends every waiting ask at once, and an ended one cannot be decided", async () => {
    const asks = new PendingAsks();
    const first = asks.hold(ask("needs_e"), { waitMs: 1000 });
    const second = asks.hold(ask("needs_f"), { waitMs: 1000 });

    asks.endAll({ outcome: "present" });

    expect(await first.answer).toEqual({ outcome: "present" });
    expect(await second.answer).toEqual({ outcome: "present" });
    expect(asks.decide("needs_e", allow)).toBe(false);
  });
});
