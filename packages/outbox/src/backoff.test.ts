import { OUTBOX_SEND_RETRY_INITIAL_MS, OUTBOX_SEND_RETRY_MAX_MS } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { parseRetryAfterMs, retryDelayMs } from "./backoff.js";

describe("retryDelayMs", () => {
  it("starts at 1 s and doubles up to 5 min", () => {
    const delays = Array.from({ length: 12 }, (_, index) => retryDelayMs(index + 1));
    expect(delays).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 300000, 300000, 300000,
    ]);
    expect(delays[0]).toBe(OUTBOX_SEND_RETRY_INITIAL_MS);
    expect(Math.max(...delays)).toBe(OUTBOX_SEND_RETRY_MAX_MS);
  });

  it("waits at least the relay's Retry-After, still at most 5 min", () => {
    expect(retryDelayMs(1, 20_000)).toBe(20_000);
    expect(retryDelayMs(6, 1_000)).toBe(32_000);
    expect(retryDelayMs(1, 3_600_000)).toBe(OUTBOX_SEND_RETRY_MAX_MS);
  });
});

describe("parseRetryAfterMs", () => {
  it("reads seconds and HTTP dates, and ignores anything else", () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    expect(parseRetryAfterMs("7", now)).toBe(7000);
    expect(parseRetryAfterMs("Wed, 01 Jan 2025 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfterMs("Wed, 01 Jan 2025 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfterMs("soon", now)).toBeUndefined();
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
  });
});
