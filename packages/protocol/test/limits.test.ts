import { describe, expect, it } from "vitest";
import * as limits from "../src/limits.js";

describe("limits", () => {
  it("carries the spec's Limits table values", () => {
    expect(limits.ISSUE_REFERENCES_MAX).toBe(100);
    expect(limits.DISPATCH_ISSUES_MAX).toBe(50);
    expect(limits.DISPATCH_RECORDS_MAX).toBe(100);
    expect(limits.UPLOAD_IMAGE_MAX_BYTES).toBe(100 * 1024 * 1024);
    expect(limits.UPLOAD_BODY_MAX_BYTES).toBe(140 * 1024 * 1024);
    expect(limits.DISPATCH_WORDS_MAX).toBe(8000);
    expect(limits.REPORT_BODY_MAX_BYTES).toBeGreaterThanOrEqual(800_000);
    expect(limits.REPORT_BODY_MAX_BYTES).toBeLessThanOrEqual(840_000);
    expect(limits.HOOK_TIMEOUT_MS).toBe(5000);
    expect(limits.CONCURRENT_BRIEF_GENERATIONS).toBe(3);
    expect(limits.OUTBOX_SEND_RETRY_INITIAL_MS).toBe(1000);
    expect(limits.OUTBOX_SEND_RETRY_MAX_MS).toBe(300_000);
    expect(limits.TRACKER_READ_RETRY_DELAYS_MS).toEqual([500, 1000, 2000]);
    expect(limits.SPOKEN_PARAGRAPH_MAX_RATIO).toBe(0.6);
    expect(limits.SPOKEN_RATIO_MIN_ORIGINAL_CHARS).toBe(300);
    expect(limits.BRIEF_REWRITES_MAX).toBe(1);
    expect(limits.PASSPHRASE_MIN_CHARS).toBe(12);
    expect(limits.PBKDF2_ITERATIONS).toBe(600_000);
    expect([limits.E2E_KEY_BYTES, limits.E2E_IV_BYTES]).toEqual([32, 12]);
    expect(limits.ANSWERED_IDS_MAX).toBe(200);
    expect(limits.CALL_RECORDS_MAX).toBe(100);
    expect(limits.LATE_CALL_THRESHOLD_MS).toBe(120_000);
    expect(limits.RING_SCHEDULE_LOOKAHEAD_MS).toBe(7 * 24 * 3600 * 1000);
    expect(limits.RINGTONE_FILE_MAX_BYTES).toBe(10 * 1024 * 1024);
    expect(limits.IMAGE_CONVERSION_MAX_BYTES).toBe(1.5 * 1024 * 1024);
    expect(limits.IMAGE_CONVERSION_MAX_EDGE_PX).toBe(2048);
    expect(limits.DISPATCH_CREATION_POLL_MS).toBe(3000);
    expect(limits.DISPATCH_OPTIONS_POLL_MS).toBe(10_000);
    expect(limits.BRIEF_LANGUAGE_RETRY_MS).toBe(30_000);
    expect(limits.DEFAULT_LOCAL_PORT).toBe(8790);
  });
});
