import { afterEach, describe, expect, it, vi } from "vitest";
import { Changes, eventually } from "../src/index.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("eventually", () => {
  it("resolves with the first result that holds, checking once per tick", async () => {
    let calls = 0;
    const value = await eventually(() => {
      calls += 1;
      return calls === 3 ? { calls } : undefined;
    });
    expect(value).toEqual({ calls: 3 });
  });

  it("fails after its count of checks, naming what it waited for", async () => {
    let calls = 0;
    const waiting = eventually(
      () => {
        calls += 1;
        return false;
      },
      { what: "the moon", checks: 3, intervalMs: 1 },
    );
    await expect(waiting).rejects.toThrow("the moon did not hold after 3 checks");
    expect(calls).toBe(4);
  });

  it("checks at every change it is told of, at no cost to its count", async () => {
    const changes = new Changes();
    let count = 0;
    // One tick in a minute: only the changes can make it hold in time.
    const waiting = eventually(() => count >= 5, { on: changes, checks: 1, intervalMs: 60_000 });
    for (let change = 0; change < 5; change++) {
      count += 1;
      changes.notify();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect(waiting).resolves.toBe(true);
  });

  it("keeps ticking on a fake clock, which it leaves alone", async () => {
    vi.useFakeTimers();
    let calls = 0;
    await expect(eventually(() => ++calls === 4, { intervalMs: 1 })).resolves.toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
