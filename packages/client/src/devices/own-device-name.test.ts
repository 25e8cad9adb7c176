import { generateKey, openDeviceName, sealDeviceName } from "@ringback/e2e-crypto";
import type { DeviceList } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { type OwnNameRelay, resealOwnDeviceName, setOwnDeviceName } from "./own-device-name.js";

/** A relay that lists this device under `ownName` and keeps every name set. */
function relayListing(ownName: string): OwnNameRelay & { readonly names: string[] } {
  const names: string[] = [];
  const list: DeviceList = {
    devices: [
      {
        id: "other",
        name: "x",
        kind: "computer",
        createdAt: "",
        lastSeenAt: null,
        online: true,
        isCurrent: false,
      },
      {
        id: "me",
        name: ownName,
        kind: "phone",
        createdAt: "",
        lastSeenAt: null,
        online: true,
        isCurrent: true,
      },
    ],
  };
  return {
    names,
    listDevices: async () => list,
    renameDevice: async (name) => names.push(name),
  };
}

describe("this device's own name at the relay", () => {
  const previous = generateKey();
  const next = generateKey();

  it("is set sealed, never as plaintext", async () => {
    const relay = relayListing("phone");
    await setOwnDeviceName(relay, next, "Pixel");
    expect(relay.names).toHaveLength(1);
    expect(relay.names[0]).not.toContain("Pixel");
    expect(await openDeviceName(next, relay.names[0]!)).toBe("Pixel");
  });

  it("is sealed again under a new key: the name kept on the device first", async () => {
    const relay = relayListing(await sealDeviceName(previous, "Old name at the relay"));
    expect(await resealOwnDeviceName(relay, { previous, next }, "Pixel")).toBe("Pixel");
    expect(await openDeviceName(next, relay.names[0]!)).toBe("Pixel");
  });

  it("is sealed again under a new key: else its entry at the relay, read with the old key", async () => {
    const sealed = relayListing(await sealDeviceName(previous, "Pixel"));
    expect(await resealOwnDeviceName(sealed, { previous, next })).toBe("Pixel");
    expect(await openDeviceName(next, sealed.names[0]!)).toBe("Pixel");
    const older = relayListing("Plain old name");
    expect(await resealOwnDeviceName(older, { previous, next })).toBe("Plain old name");
    expect(await openDeviceName(next, older.names[0]!)).toBe("Plain old name");
  });

  it("is left alone when no name is known: the placeholder, or a name the old key does not open", async () => {
    for (const listed of ["phone", await sealDeviceName(generateKey(), "Pixel")]) {
      const relay = relayListing(listed);
      expect(await resealOwnDeviceName(relay, { previous, next })).toBeNull();
      expect(relay.names).toEqual([]);
    }
  });
});
