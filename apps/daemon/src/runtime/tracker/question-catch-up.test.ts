import { describe, expect, it } from "vitest";
import { secondBefore } from "./question-catch-up.js";

describe("the time realtime may have given a caught-up move", () => {
  it("is the tracker's time a second earlier, written the same way", () => {
    expect(secondBefore("2026-11-26T10:00:05Z")).toBe("2026-11-26T10:00:04Z");
    expect(secondBefore("2026-01-01T00:00:00Z")).toBe("2025-12-31T23:59:59Z");
    expect(secondBefore("2026-11-26T18:00:00+08:00")).toBe("2026-11-26T17:59:59+08:00");
    expect(secondBefore("2026-11-26T00:00:00-05:30")).toBe("2026-11-25T23:59:59-05:30");
  });

  it("is unknown for a time the tracker does not write (fractions, no zone, not a time)", () => {
    expect(secondBefore("2026-11-26T10:00:05.123Z")).toBeNull();
    expect(secondBefore("2026-11-26T10:00:05")).toBeNull();
    expect(secondBefore("yesterday")).toBeNull();
  });
});
