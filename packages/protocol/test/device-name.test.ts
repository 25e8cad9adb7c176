import { describe, expect, it } from "vitest";
import {
  CallDelivery,
  CreateAccountRequest,
  RelayDeviceName,
  RenameDeviceRequest,
  SEALED_DEVICE_NAME_MAX_CHARS,
} from "../src/index.js";

const sealed = (dataChars: number) => `e2e1.0123456789abcdef.AAAAAAAAAAAAAAAA.${"B".repeat(dataChars)}`;

describe("device names at the relay", () => {
  it("takes a sealed name as it is, and a plaintext name from an older client trimmed", () => {
    expect(RelayDeviceName.parse(sealed(1387))).toBe(sealed(1387));
    expect(RelayDeviceName.parse("  Pixel 8 ")).toBe("Pixel 8");
    expect(RenameDeviceRequest.parse({ name: sealed(100) })).toEqual({ name: sealed(100) });
    expect(CreateAccountRequest.parse({ deviceName: sealed(100), deviceKind: "phone" }).deviceName).toBe(
      sealed(100),
    );
  });

  it.each([
    ["an empty name", ""],
    ["only spaces", "   "],
    ["a plaintext name over 100 characters", "x".repeat(101)],
    ["a sealed name over the bound", sealed(SEALED_DEVICE_NAME_MAX_CHARS)],
    ["a sealed-looking name over 100 characters that is not base64url", `${sealed(100)}+/=`],
    ["not a string", 7],
  ])("refuses %s", (_case, name) => {
    expect(RenameDeviceRequest.safeParse({ name }).success).toBe(false);
  });

  it("reads a delivery record with the device's kind, and one from an older relay without it", () => {
    const record = { seq: 1, eventId: "ev-1", deviceId: "dev_1", deviceName: sealed(100), outcome: "shown" };
    expect(CallDelivery.parse({ ...record, at: "2026-01-01T00:00:00.000Z" }).deviceKind).toBeUndefined();
    expect(
      CallDelivery.parse({ ...record, deviceKind: "phone", at: "2026-01-01T00:00:00.000Z" }).deviceKind,
    ).toBe("phone");
  });
});
