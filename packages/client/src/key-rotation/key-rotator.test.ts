import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type E2eKey, generateKey, openDeviceName, sealedKeyId } from "@ringback/e2e-crypto";
import type { KeyRotationNotice } from "@ringback/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { RelayClient } from "../relay/relay-client.js";
import { LocalSettings, type Pairing } from "../storage/local-settings.js";
import { createMemoryStore } from "../storage/memory-key-value.js";
import { KeyRotator } from "./key-rotator.js";
import { openKeyRotation, sealKeyRotation } from "./rotation-notice.js";

/**
 * A relay stand-in with what rotation uses: the device list, removal, the account's notices (one per old key, as the
 * relay keeps them) and names; settings requests find the computer offline. It records the routes in order.
 */
async function startRelay() {
  const routes: string[] = [];
  const notices: KeyRotationNotice[] = [];
  const names = new Map<string, string>();
  const state = { isNoticeRefused: false };
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      const route = `${request.method} ${request.url}`;
      routes.push(route);
      const token = request.headers.authorization?.replace("Bearer ", "") ?? "";
      const json = (status: number, answer: unknown) =>
        response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(answer));
      const parsed = JSON.parse(body || "{}");
      if (route === "GET /v1/key-rotations") return json(200, { rotations: notices.map(listed) });
      if (route === "POST /v1/key-rotations") {
        if (state.isNoticeRefused)
          return json(503, { error: { code: "relay_unavailable", message: "Later." } });
        const fromKey = sealedKeyId(parsed.sealed);
        if (notices.some((notice) => sealedKeyId(notice.sealed) === fromKey)) {
          return json(409, { error: { code: "key_rotation_conflict", message: "Follow first." } });
        }
        notices.push(parsed);
        return json(201, { rotationId: parsed.rotationId, createdAt: new Date(0).toISOString() });
      }
      if (request.method === "DELETE")
        return json(200, { deviceId: request.url?.split("/").pop(), removed: true });
      if (route === "PUT /v1/devices/me/name") {
        names.set(token, parsed.name);
        return json(200, { deviceId: token, name: parsed.name });
      }
      if (route === "GET /v1/devices") {
        const device = (id: string, kind: string) => ({
          id,
          name: "x",
          kind,
          createdAt: new Date(0).toISOString(),
          lastSeenAt: null,
          online: false,
          isCurrent: id === token,
        });
        return json(200, { devices: [device("pc", "computer"), device("phone", "phone")] });
      }
      json(503, { error: { code: "computer_offline", message: "Offline." } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routes,
    notices,
    names,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function listed(notice: KeyRotationNotice) {
  return { ...notice, createdAt: new Date(0).toISOString() };
}

type Relay = Awaited<ReturnType<typeof startRelay>>;

/** A paired device (`deviceId`, token the same) with `key`, its rotator, and the keys it was handed. */
async function pairedDevice(relay: Relay, deviceId: string, key: E2eKey) {
  const settings = new LocalSettings(createMemoryStore());
  let pairing: Pairing = {
    identity: {
      serverUrl: relay.origin,
      accountId: "acc1",
      deviceId,
      deviceToken: deviceId,
      deviceName: `${deviceId}'s name`,
    },
    key,
  };
  await settings.savePairing(pairing);
  const rotator = new KeyRotator({
    settings,
    relay: () => new RelayClient({ serverUrl: relay.origin, deviceToken: deviceId }),
    pairing: () => pairing,
    onKeyChanged: (changed) => {
      pairing = changed;
    },
  });
  return { settings, rotator, key: () => pairing.key };
}

let relay: Relay;
afterEach(async () => {
  await relay?.close();
});

describe("removing a device rotates the account's key", () => {
  it("revokes the device first, then keeps the new key sealed under the old at the relay, and moves this device to it", async () => {
    relay = await startRelay();
    const oldKey = generateKey();
    const phone = await pairedDevice(relay, "phone", oldKey);
    const moves = await phone.rotator.removeDevice("old-tablet");

    expect(relay.routes.indexOf("DELETE /v1/devices/old-tablet")).toBeLessThan(
      relay.routes.indexOf("POST /v1/key-rotations"),
    );
    const [notice] = relay.notices;
    const newKey = phone.key();
    expect(newKey).not.toBe(oldKey);
    expect(await openKeyRotation(oldKey, notice!)).toBe(newKey);
    expect((await phone.settings.loadPairing())?.key).toBe(newKey);
    expect(await openDeviceName(newKey, relay.names.get("phone")!)).toBe("phone's name");
    // The computer was offline: it moves from the relay's notice when it connects.
    expect(moves).toEqual(new Map([["pc", "later"]]));
    expect(relay.routes).toContain("POST /v1/devices/pc/settings");
    expect(await phone.settings.loadKeyRotationOwed()).toBeNull();
  });

  it("lets a remaining device that held the old key catch up from the notice, once", async () => {
    relay = await startRelay();
    const oldKey = generateKey();
    const remover = await pairedDevice(relay, "phone", oldKey);
    const other = await pairedDevice(relay, "laptop", oldKey);
    await remover.rotator.removeDevice("old-tablet");

    expect(await other.rotator.catchUp()).toBe(true);
    expect(other.key()).toBe(remover.key());
    expect((await other.settings.loadPairing())?.key).toBe(remover.key());
    expect(await other.rotator.catchUp()).toBe(false);
  });

  it("follows a rotation another device made from the same key first, then rotates from the newer key", async () => {
    relay = await startRelay();
    const oldKey = generateKey();
    const first = await sealKeyRotation(oldKey, { removedDeviceId: "dev-a" });
    relay.notices.push(first.notice);
    const phone = await pairedDevice(relay, "phone", oldKey);
    await phone.rotator.removeDevice("dev-b");

    expect(relay.notices).toHaveLength(2);
    expect(await openKeyRotation(first.next, relay.notices[1]!)).toBe(phone.key());
    expect(phone.key()).not.toBe(first.next);
  });

  it("remembers a rotation the relay did not take, and finishes it at the next start", async () => {
    relay = await startRelay();
    const oldKey = generateKey();
    const phone = await pairedDevice(relay, "phone", oldKey);
    relay.state.isNoticeRefused = true;
    await expect(phone.rotator.removeDevice("old-tablet")).rejects.toThrow();
    expect(relay.routes).toContain("DELETE /v1/devices/old-tablet");
    expect(phone.key()).toBe(oldKey);
    expect(await phone.settings.loadKeyRotationOwed()).toBe("old-tablet");

    relay.state.isNoticeRefused = false;
    expect(await phone.rotator.finishOwedRotation()).toEqual(new Map([["pc", "later"]]));
    expect(await openKeyRotation(oldKey, relay.notices[0]!)).toBe(phone.key());
    expect(await phone.rotator.finishOwedRotation()).toBeNull();
  });
});
