import type { AwaySchedule } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { ownedSchedule } from "./schedule-owner.js";

const times: AwaySchedule = {
  timeZone: "UTC",
  periods: [{ modeName: "Commute", days: [1], ranges: [{ start: "08:00", end: "09:00" }] }],
};

describe("whose away times they are", () => {
  it("marks a relayed device's times with the id the relay stamped, whether or not the body names it", () => {
    const sender = { kind: "device", deviceId: "dev_phone" } as const;
    expect(ownedSchedule(times, sender)).toEqual({ ...times, deviceId: "dev_phone" });
    expect(ownedSchedule({ ...times, deviceId: "dev_phone" }, sender)).toEqual({
      ...times,
      deviceId: "dev_phone",
    });
  });

  it("refuses a relayed body that names another device", () => {
    const sender = { kind: "device", deviceId: "dev_phone" } as const;
    expect(() => ownedSchedule({ ...times, deviceId: "dev_other" }, sender)).toThrow(
      expect.objectContaining({ code: "device_mismatch", status: 403 }),
    );
  });

  it("keeps no device from a relay too old to stamp one, and the local caller's body as it is", () => {
    expect(ownedSchedule({ ...times, deviceId: "dev_other" }, { kind: "device" })).toEqual(times);
    expect(ownedSchedule({ ...times, deviceId: "dev_other" }, { kind: "local" })).toEqual({
      ...times,
      deviceId: "dev_other",
    });
    expect(ownedSchedule(null, { kind: "device", deviceId: "dev_phone" })).toBeNull();
  });
});
