import { describe, expect, it } from "vitest";
import { CLASSIC_TONE, RINGBACK_TONE, toneBursts } from "./tones.js";

describe("tones", () => {
  it("plays the classic double ring every 3 seconds", () => {
    expect(toneBursts(CLASSIC_TONE, 0, 6000)).toEqual([
      { startMs: 0, endMs: 400 },
      { startMs: 600, endMs: 1000 },
      { startMs: 3000, endMs: 3400 },
      { startMs: 3600, endMs: 4000 },
    ]);
  });

  it("plays the call-waiting ringback at 450 Hz, 1 s on and 4 s off", () => {
    expect(RINGBACK_TONE.frequenciesHz).toEqual([450]);
    expect(toneBursts(RINGBACK_TONE, 4000, 11000)).toEqual([
      { startMs: 5000, endMs: 6000 },
      { startMs: 10000, endMs: 11000 },
    ]);
  });

  it("schedules each burst once across consecutive windows", () => {
    const windows = [toneBursts(CLASSIC_TONE, 0, 1000), toneBursts(CLASSIC_TONE, 1000, 4000)].flat();
    expect(windows).toEqual(toneBursts(CLASSIC_TONE, 0, 4000));
  });
});
