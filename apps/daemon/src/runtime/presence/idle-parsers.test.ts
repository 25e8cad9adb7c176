import { describe, expect, it } from "vitest";
import { hidIdleSeconds, logindIdleSeconds, xprintidleSeconds } from "./idle-parsers.js";
import { readIdleTime } from "./read-idle-time.js";

const NOW_MS = Date.parse("2026-12-07T01:00:00Z");

describe("idle counters", () => {
  it("reads xprintidle's milliseconds", () => {
    expect(xprintidleSeconds("125400\n")).toBe(125);
    expect(xprintidleSeconds("couldn't open display\n")).toBeNull();
  });

  it("reads logind's IdleHint and IdleSinceHint (µs), 0 when not idle", () => {
    const sinceUs = (NOW_MS - 180_000) * 1000;
    expect(logindIdleSeconds(`IdleHint=yes\nIdleSinceHint=${sinceUs}\n`, NOW_MS)).toBe(180);
    expect(logindIdleSeconds("IdleHint=no\nIdleSinceHint=0\n", NOW_MS)).toBe(0);
    expect(logindIdleSeconds("Failed to get session\n", NOW_MS)).toBeNull();
  });

  it("reads macOS's HIDIdleTime (ns)", () => {
    expect(hidIdleSeconds('    |   "HIDIdleTime" = 130500000000\n')).toBe(130);
    expect(hidIdleSeconds("nothing")).toBeNull();
  });

  it("tries X first, then logind, and says what it tried when neither answers", async () => {
    const asked: string[] = [];
    const reading = await readIdleTime({
      platform: "linux",
      env: { DISPLAY: ":0", XDG_SESSION_ID: "3" },
      now: () => NOW_MS,
      run: async (program, args) => {
        asked.push([program, ...args].join(" "));
        throw new Error("not installed");
      },
    });
    expect(asked).toEqual(["xprintidle", "loginctl show-session 3 -p IdleHint -p IdleSinceHint"]);
    expect(reading).toEqual({
      kind: "unavailable",
      reason: "no input idle time here (tried X idle counter (xprintidle), logind IdleHint)",
    });
  });

  it("answers with the first counter that reads", async () => {
    const reading = await readIdleTime({
      platform: "darwin",
      env: {},
      now: () => NOW_MS,
      run: async () => '"HIDIdleTime" = 200000000000',
    });
    expect(reading).toEqual({ kind: "idle", seconds: 200, source: "HIDIdleTime (ioreg)" });
  });

  it("reads this computer's real counter, or says it cannot (a real child process)", async () => {
    const reading = await readIdleTime({ platform: process.platform, env: process.env, now: Date.now });
    if (reading.kind === "idle") expect(reading.seconds).toBeGreaterThanOrEqual(0);
    else expect(reading.reason).toMatch(/^no input idle time here/);
  });
});
