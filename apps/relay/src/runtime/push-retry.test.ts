import { describe, expect, it } from "vitest";
import { PUSH_RETRY_MAX_MS, pushRetryDelayMs, retryAfterMs } from "./push-retry.js";

const NOW = Date.UTC(2026, 0, 1, 9, 0, 0);

describe("push retry delay", () => {
  it("doubles from one second up to the cap", () => {
    expect([0, 1, 2, 3].map((failures) => pushRetryDelayMs(failures, null, NOW))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(pushRetryDelayMs(40, null, NOW)).toBe(PUSH_RETRY_MAX_MS);
  });

  it("never retries sooner than Retry-After, in seconds or as a date", () => {
    expect(pushRetryDelayMs(0, "120", NOW)).toBe(120_000);
    expect(pushRetryDelayMs(0, new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(pushRetryDelayMs(5, "1", NOW)).toBe(32_000);
  });

  it("ignores a Retry-After it cannot read", () => {
    expect(retryAfterMs("soon", NOW)).toBeNull();
    expect(retryAfterMs(null, NOW)).toBeNull();
    expect(retryAfterMs(new Date(NOW - 5000).toUTCString(), NOW)).toBe(0);
  });
});
