import { type AwaySchedule, type DeviceInfo, type Presence, RingbackError } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { PresenceController } from "./presence-controller.js";

const computer = (id: string, name: string, online: boolean): DeviceInfo => ({
  id,
  name,
  kind: "computer",
  createdAt: new Date(0).toISOString(),
  lastSeenAt: null,
  online,
  isCurrent: false,
});

describe("the I'm away switch, one per computer", () => {
  it("asks each online computer for its presence and saves a change on the one switched", async () => {
    const saved: Record<string, Presence> = {
      desk: { away: false, changedAt: null, changedBy: null },
    };
    const asked: string[] = [];
    const controller = new PresenceController({
      listComputers: async () => [computer("desk", "Desk", true), computer("laptop", "Laptop", false)],
      clientFor: (computerId) => ({
        presence: async () => {
          asked.push(`GET ${computerId}`);
          return saved[computerId] as Presence;
        },
        setPresence: async (away) => {
          asked.push(`PUT ${computerId} ${away}`);
          saved[computerId] = { away, changedAt: new Date(0).toISOString(), changedBy: "Phone" };
          return saved[computerId] as Presence;
        },
        setAwaySchedule: async () => {
          throw new Error("no ring mode sets away times here");
        },
      }),
      awaySchedule: () => null,
      ownDeviceId: () => "dev_phone",
    });
    await controller.refresh();
    expect(controller.view.rows?.map((row) => [row.name, row.isOnline, row.presence?.away ?? null])).toEqual([
      ["Desk", true, false],
      ["Laptop", false, null],
    ]);
    await controller.setAway("desk", true);
    expect(controller.view.rows?.[0]).toMatchObject({
      presence: { away: true, changedBy: "Phone" },
      isBusy: false,
    });
    expect(asked).toEqual(["GET desk", "PUT desk true"]);
  });

  it("shows why a computer could not be asked, on its own row; an older daemon without presence is told apart", async () => {
    const refusals: Record<string, RingbackError> = {
      desk: new RingbackError("computer_timeout"),
      old: new RingbackError("not_found"),
    };
    const controller = new PresenceController({
      listComputers: async () => [computer("desk", "Desk", true), computer("old", "Old", true)],
      clientFor: (computerId) => ({
        presence: async () => {
          throw refusals[computerId];
        },
        setPresence: async () => {
          throw refusals[computerId];
        },
        setAwaySchedule: async () => {
          throw refusals[computerId];
        },
      }),
      awaySchedule: () => null,
      ownDeviceId: () => "dev_phone",
    });
    await controller.refresh();
    expect(controller.view.rows?.[0]).toMatchObject({
      presence: null,
      isBusy: false,
      isSupported: true,
      problem: { kind: "computer-offline" },
    });
    expect(controller.view.rows?.[1]).toMatchObject({ presence: null, isSupported: false, problem: null });
  });

  it("sends the ring modes' away times at each refresh and after a change; a daemon without them keeps its switch", async () => {
    const sleep: AwaySchedule = {
      timeZone: "Europe/Paris",
      periods: [
        { modeName: "Sleep", days: [0, 1, 2, 3, 4, 5, 6], ranges: [{ start: "22:00", end: "08:00" }] },
      ],
      deviceId: "dev_phone",
    };
    let schedule: AwaySchedule | null = sleep;
    const asked: string[] = [];
    const kept = new Map<string, AwaySchedule | null>();
    const presenceOf = (computerId: string): Presence => {
      const keeps = kept.get(computerId) ?? null;
      return {
        away: keeps !== null,
        changedAt: null,
        changedBy: computerId,
        schedule: keeps && { ...keeps, setAt: new Date(0).toISOString(), setBy: "a paired device" },
      };
    };
    const controller = new PresenceController({
      listComputers: async () => [computer("desk", "Desk", true), computer("old", "Old", true)],
      clientFor: (computerId) => ({
        presence: async () => {
          asked.push(`GET ${computerId}`);
          return presenceOf(computerId);
        },
        setPresence: async () => {
          throw new Error("not switched in this test");
        },
        setAwaySchedule: async (sent) => {
          asked.push(
            `SCHEDULE ${computerId} ${sent ? sent.periods.map((period) => period.modeName) : "none"}`,
          );
          if (computerId === "old") throw new RingbackError("not_found");
          kept.set(computerId, sent);
          return presenceOf(computerId);
        },
      }),
      awaySchedule: () => schedule,
      ownDeviceId: () => "dev_phone",
    });
    await controller.refresh();
    expect(asked.sort()).toEqual(["GET old", "SCHEDULE desk Sleep", "SCHEDULE old Sleep"]);
    expect(controller.view.rows?.map((row) => [row.computerId, row.presence?.away, row.isSupported])).toEqual(
      [
        ["desk", true, true],
        ["old", false, true],
      ],
    );

    asked.length = 0;
    schedule = null;
    await controller.sendAwaySchedule();
    expect(asked.sort()).toEqual(["GET desk", "GET old", "SCHEDULE desk none"]);
    expect(controller.view.rows?.[0]?.presence).toMatchObject({ away: false, schedule: null });

    asked.length = 0;
    await controller.refresh();
    expect(asked.sort()).toEqual(["GET desk", "GET old"]);
  });

  it("takes back its own away times from a computer that was offline when they were turned off, not another phone's", async () => {
    const kept = (deviceId: string): Presence => ({
      away: false,
      changedAt: null,
      changedBy: null,
      schedule: {
        timeZone: "UTC",
        periods: [{ modeName: "Sleep", days: [0], ranges: [{ start: "22:00", end: "08:00" }] }],
        deviceId,
        setAt: new Date(0).toISOString(),
        setBy: "a paired device",
      },
    });
    const asked: string[] = [];
    const controller = new PresenceController({
      listComputers: async () => [computer("laptop", "Laptop", true), computer("desk", "Desk", true)],
      clientFor: (computerId) => ({
        presence: async () => {
          asked.push(`GET ${computerId}`);
          return kept(computerId === "laptop" ? "dev_phone" : "dev_tablet");
        },
        setPresence: async () => {
          throw new Error("not switched in this test");
        },
        setAwaySchedule: async (sent) => {
          asked.push(`SCHEDULE ${computerId} ${sent === null ? "none" : "some"}`);
          return { away: false, changedAt: null, changedBy: null, schedule: null };
        },
      }),
      awaySchedule: () => null,
      ownDeviceId: () => "dev_phone",
    });
    await controller.refresh();
    expect(asked.sort()).toEqual(["GET desk", "GET laptop", "SCHEDULE laptop none"]);
    expect(controller.view.rows?.find((row) => row.computerId === "laptop")?.presence?.schedule).toBeNull();
    expect(controller.view.rows?.find((row) => row.computerId === "desk")?.presence?.schedule?.deviceId).toBe(
      "dev_tablet",
    );
  });
});
