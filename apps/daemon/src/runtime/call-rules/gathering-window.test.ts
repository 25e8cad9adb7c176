import { describe, expect, it } from "vitest";
import { GatheringWindow } from "./gathering-window.js";

describe("GatheringWindow", () => {
  it("holds every finish inside the window to its end, and opens the next window with the first finish after it", () => {
    let nowMs = 1_000_000;
    const window = new GatheringWindow(() => nowMs);
    expect(window.holdFor(20)).toBe(1_020_000);
    nowMs += 19_999;
    expect(window.holdFor(20)).toBe(1_020_000);
    nowMs = 1_020_000;
    expect(window.holdFor(20)).toBe(1_040_000);
  });

  it("holds nothing with a window of 0 s", () => {
    const window = new GatheringWindow(() => 5);
    expect(window.holdFor(0)).toBeNull();
  });

  it("after a restart goes on with the window its held calls were given, while it has not ended", () => {
    let nowMs = 10_000;
    const window = new GatheringWindow(() => nowMs);
    window.resume([25_000, 25_000]);
    expect(window.holdFor(20)).toBe(25_000);
    nowMs = 30_000;
    const later = new GatheringWindow(() => nowMs);
    later.resume([25_000]);
    expect(later.holdFor(20)).toBe(50_000);
  });
});
