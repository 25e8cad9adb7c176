import { describe, expect, it } from "vitest";
import {
  LLM_TESTS_PER_MINUTE_MAX,
  LOCAL_LLM_TESTS_PER_MINUTE_MAX,
  TestLimitError,
  TestsPerMinute,
} from "./tests-per-minute.js";

describe("model tests per device and minute", () => {
  it("refuses the test past the limit with the seconds until the oldest leaves the minute, per device", () => {
    let now = 1_000_000;
    const limit = new TestsPerMinute(() => now);
    for (let test = 0; test < LLM_TESTS_PER_MINUTE_MAX; test += 1) {
      limit.take("dev_phone");
      now += 1_000;
    }
    let refused: unknown;
    try {
      limit.take("dev_phone");
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(TestLimitError);
    expect(refused).toMatchObject({ code: "rate_limited", status: 429, retryAfterSeconds: 54 });
    // Another device, and this computer's own user, are not held up by it.
    expect(() => limit.take("dev_tablet")).not.toThrow();
    expect(() => limit.take("local")).not.toThrow();
    now += 54_000;
    expect(() => limit.take("dev_phone")).not.toThrow();
    expect(() => limit.take("dev_phone")).toThrow(TestLimitError);
  });

  it("counts the callers on this computer as one device with a limit of its own", () => {
    const limit = new TestsPerMinute(() => 0);
    for (let test = 0; test < LOCAL_LLM_TESTS_PER_MINUTE_MAX; test += 1) limit.take("local");
    expect(() => limit.take("local")).toThrow(TestLimitError);
  });
});
