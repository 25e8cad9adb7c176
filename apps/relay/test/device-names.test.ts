import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { generateKey, openDeviceName, sealDeviceName } from "@ringback/e2e-crypto";
import { RELAY_SMALL_BODY_MAX_BYTES, SEALED_DEVICE_NAME_MAX_CHARS } from "@ringback/protocol";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { ChildRelay } from "./support/child-relay.js";
import { eventBody, inProcessRelay, requestAt } from "./support/in-process-relay.js";

const NAME = "Zoë's Pixel 8";

describe("device names: sealed by the devices, opaque to the relay", () => {
  it("stores and lists a sealed name as sent, and still takes a plaintext one from an older client", async () => {
    await using relay = await inProcessRelay();
    const key = generateKey();
    const sealed = await sealDeviceName(key, NAME);
    const created = await relay.request("POST", "/v1/accounts", {
      body: { deviceName: sealed, deviceKind: "computer" },
    });
    expect(created.status).toBe(201);
    const code = (await relay.request("POST", "/v1/pairing-codes", { token: created.body.deviceToken })).body
      .code;
    const older = await relay.request("POST", "/v1/pairing-codes/redeem", {
      body: { code, deviceName: "Old phone", deviceKind: "phone" },
    });
    expect(older.status).toBe(201);
    const list = await relay.request("GET", "/v1/devices", { token: created.body.deviceToken });
    expect(list.body.devices.map((device: { name: string }) => device.name)).toEqual([sealed, "Old phone"]);
    expect(await openDeviceName(key, list.body.devices[0].name)).toBe(NAME);
  });

  it("lets a device replace its own name, and copies the name it has then into delivery records", async () => {
    await using relay = await inProcessRelay();
    const key = generateKey();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const sealed = await sealDeviceName(key, NAME);
    const renamed = await relay.request("PUT", "/v1/devices/me/name", {
      token: phone.deviceToken,
      body: { name: sealed },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ deviceId: phone.deviceId, name: sealed });
    const devices = (await relay.request("GET", "/v1/devices", { token: computer.deviceToken })).body.devices;
    expect(devices.find((device: { id: string }) => device.id === phone.deviceId).name).toBe(sealed);

    await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("ev-1"),
    });
    const shown = await relay.request("POST", "/v1/calls/ev-1/deliveries", {
      token: phone.deviceToken,
      body: { outcome: "shown" },
    });
    expect(shown.body).toMatchObject({ deviceId: phone.deviceId, deviceName: sealed, deviceKind: "phone" });
    expect(relay.logs.join("\n")).toContain(`device renamed device=${phone.deviceId}`);
    expect(relay.logs.join("\n")).not.toContain(sealed);
  });

  it.each([
    ["no name", {}],
    ["an empty name", { name: "  " }],
    ["a plaintext name over 100 characters", { name: "x".repeat(101) }],
    [
      "a sealed name over the bound",
      { name: `e2e1.0123456789abcdef.AAAAAAAAAAAAAAAA.${"B".repeat(SEALED_DEVICE_NAME_MAX_CHARS)}` },
    ],
    ["a name that is not a string", { name: ["Pixel"] }],
  ])("refuses %s with 400 invalid_request and keeps the name", async (_case, body) => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const response = await relay.request("PUT", "/v1/devices/me/name", { token: computer.deviceToken, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("invalid_request");
    const [device] = (await relay.request("GET", "/v1/devices", { token: computer.deviceToken })).body
      .devices;
    expect(device.name).toBe("my computer");
  });

  it("refuses a body that is not JSON, one over the small-body limit, and a request without a device token", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const notJson = await relay.request("PUT", "/v1/devices/me/name", {
      token: computer.deviceToken,
      body: "{name:",
    });
    expect([notJson.status, notJson.body.error.code]).toEqual([400, "invalid_request"]);
    const huge = await relay.request("PUT", "/v1/devices/me/name", {
      token: computer.deviceToken,
      body: { name: "x".repeat(RELAY_SMALL_BODY_MAX_BYTES) },
    });
    expect([huge.status, huge.body.error.code]).toEqual([413, "payload_too_large"]);
    const anonymous = await relay.request("PUT", "/v1/devices/me/name", { body: { name: NAME } });
    expect(anonymous.status).toBe(401);
    expect(relay.logs.join("\n")).not.toContain(NAME);
  });

  it("refuses a sealed-looking name on account creation when it passes the bound", async () => {
    await using relay = await inProcessRelay();
    const response = await relay.request("POST", "/v1/accounts", {
      body: { deviceName: `e2e1.${"a".repeat(SEALED_DEVICE_NAME_MAX_CHARS)}`, deviceKind: "phone" },
    });
    expect([response.status, response.body.error.code]).toEqual([400, "invalid_request"]);
  });
});

describe("device names in the relay's files", () => {
  it("keeps no trace of an older client's plaintext name once the device sealed it", async () => {
    await using dir = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({ dataDir: dir.path, args: ["--open-signup"] });
    const request = requestAt(relay.url);
    const oldName = `Old laptop ${crypto.randomUUID()}`;
    const created = await request("POST", "/v1/accounts", {
      body: { deviceName: oldName, deviceKind: "computer" },
    });
    expect(created.status).toBe(201);
    const files = ["relay.db", "relay.db-wal"].map((name) => join(dir.path, name));
    const holding = (text: string) =>
      files.filter((file) => existsSync(file) && readFileSync(file).includes(text));
    // The scan sees a plaintext name where the relay keeps it.
    expect(holding(oldName)).not.toEqual([]);

    const sealed = await sealDeviceName(generateKey(), oldName);
    const renamed = await request("PUT", "/v1/devices/me/name", {
      token: created.body.deviceToken,
      body: { name: sealed },
    });
    expect(renamed.status).toBe(200);
    expect(holding(oldName)).toEqual([]);
    expect(holding(sealed)).not.toEqual([]);
    expect(relay.stderr).not.toContain(oldName);
    await relay.stop("SIGTERM");
    expect(holding(oldName)).toEqual([]);
  });
});
