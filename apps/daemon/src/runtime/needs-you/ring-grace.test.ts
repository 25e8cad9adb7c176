import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStillWaitingAfter } from "./ring-grace.js";

describe("the grace period before an ask rings", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("rings once the grace has passed with the ask still waiting, not a moment before", async () => {
    let isRinging: boolean | undefined;
    void isStillWaitingAfter(2000, new Promise(() => undefined)).then((value) => {
      isRinging = value;
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(isRinging).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(isRinging).toBe(true);
  });

  it("never rings an ask that ended within the grace (the hook went away), and says so at once", async () => {
    let end: (value: unknown) => void = () => undefined;
    const ended = new Promise((resolve) => {
      end = resolve;
    });
    let isRinging: boolean | undefined;
    void isStillWaitingAfter(2000, ended).then((value) => {
      isRinging = value;
    });
    await vi.advanceTimersByTimeAsync(1500);
    end({ outcome: "expired" });
    await vi.advanceTimersByTimeAsync(0);
    expect(isRinging).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rings at once with no grace", async () => {
    expect(await isStillWaitingAfter(0, new Promise(() => undefined))).toBe(true);
  });
});
