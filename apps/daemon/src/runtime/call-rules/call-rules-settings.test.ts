import { describe, expect, it } from "vitest";
import { StartError } from "../start-error.js";
import { gatherSecondsFromEnv, savedCallRules } from "./call-rules-settings.js";

describe("savedCallRules", () => {
  it("is the defaults without a section: a 20 s window, every project rings, no quiet summary", () => {
    expect(savedCallRules({}, {})).toEqual({ gatherSeconds: 20, projects: {}, quietSummaryAt: null });
  });

  it("takes RINGBACK_GATHER_SECONDS only while daemon.json sets no window", () => {
    const env = { RINGBACK_GATHER_SECONDS: "0" };
    expect(savedCallRules({ callRules: { projects: { docs: "silent" } } }, env)).toEqual({
      gatherSeconds: 0,
      projects: { docs: "silent" },
      quietSummaryAt: null,
    });
    expect(savedCallRules({ callRules: { gatherSeconds: 45 } }, env).gatherSeconds).toBe(45);
  });

  it("counts a section that does not parse as none, and stops the start on a window out of range", () => {
    expect(savedCallRules({ callRules: { gatherSeconds: -1 } }, {}).gatherSeconds).toBe(20);
    expect(() => gatherSecondsFromEnv({ RINGBACK_GATHER_SECONDS: "301" })).toThrow(StartError);
    expect(() => gatherSecondsFromEnv({ RINGBACK_GATHER_SECONDS: "soon" })).toThrow(/0 to 300 seconds/);
  });
});
