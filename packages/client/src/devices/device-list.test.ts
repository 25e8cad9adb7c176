import { generateKey, sealDeviceName } from "@ringback/e2e-crypto";
import type { CallDelivery, DeviceInfo } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { readDelivery, readDeviceList } from "./device-list.js";

const device = (id: string, name: string, kind: DeviceInfo["kind"]): DeviceInfo => ({
  id,
  name,
  kind,
  createdAt: "2026-01-01T00:00:00.000Z",
  lastSeenAt: null,
  online: false,
  isCurrent: false,
});

describe("reading the account's devices and delivery records", () => {
  const key = generateKey();

  it("opens each name, keeps older plaintext ones, and reads the rest as null", async () => {
    const devices = [
      device("d1", await sealDeviceName(key, "Work laptop"), "computer"),
      device("d2", await sealDeviceName(generateKey(), "Someone else's phone"), "phone"),
      device("d3", "Old tablet", "browser"),
      device("d4", "browser", "browser"),
    ];
    expect((await readDeviceList(key, devices)).map((entry) => [entry.id, entry.name, entry.kind])).toEqual([
      ["d1", "Work laptop", "computer"],
      ["d2", null, "phone"],
      ["d3", "Old tablet", "browser"],
      ["d4", null, "browser"],
    ]);
  });

  it("opens the name of a delivery record and keeps its kind", async () => {
    const delivery: CallDelivery = {
      seq: 3,
      eventId: "ev-1",
      deviceId: "d1",
      deviceName: await sealDeviceName(key, "Pixel"),
      deviceKind: "phone",
      outcome: "shown",
      at: "2026-01-01T00:00:00.000Z",
    };
    expect(await readDelivery(key, delivery)).toEqual({ ...delivery, deviceName: "Pixel" });
    expect(await readDelivery(generateKey(), delivery)).toEqual({ ...delivery, deviceName: null });
  });
});
