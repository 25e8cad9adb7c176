import { aad, generateKey, keyId, sealJson } from "@ringback/e2e-crypto";
import { describe, expect, it } from "vitest";
import { inProcessRelay } from "./support/in-process-relay.js";

async function notice(rotationId: string, key = generateKey()) {
  return { rotationId, sealed: await sealJson(key, aad.keyRotation(rotationId), { key: generateKey() }) };
}

describe("key rotation notices: kept for the account's live devices, opaque to the relay", () => {
  it("serves a notice to the remaining devices and computers, never to a device removed before it was posted", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const removed = await relay.pair(computer.deviceToken, "phone");
    expect(
      (await relay.request("DELETE", `/v1/devices/${removed.deviceId}`, { token: phone.deviceToken })).status,
    ).toBe(200);
    const posted = await notice("rot-1");
    const created = await relay.request("POST", "/v1/key-rotations", {
      token: phone.deviceToken,
      body: posted,
    });
    expect(created.status).toBe(201);
    expect(created.body.rotationId).toBe("rot-1");

    for (const token of [phone.deviceToken, computer.deviceToken]) {
      const list = await relay.request("GET", "/v1/key-rotations", { token });
      expect(list.status).toBe(200);
      expect(list.body.rotations).toEqual([{ ...posted, createdAt: created.body.createdAt }]);
    }
    const refused = await relay.request("GET", "/v1/key-rotations", { token: removed.deviceToken });
    expect(refused.status).toBe(401);
    expect(relay.logs.join("\n")).not.toContain(posted.sealed);
  });

  it("takes one notice per old key (409 key_rotation_conflict for a second), a repeat as one, and no other account's", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const oldKey = generateKey();
    const first = await notice("rot-a", oldKey);
    expect(
      (await relay.request("POST", "/v1/key-rotations", { token: phone.deviceToken, body: first })).status,
    ).toBe(201);
    const repeat = await relay.request("POST", "/v1/key-rotations", {
      token: phone.deviceToken,
      body: first,
    });
    expect(repeat.status).toBe(200);
    const second = await relay.request("POST", "/v1/key-rotations", {
      token: computer.deviceToken,
      body: await notice("rot-b", oldKey),
    });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("key_rotation_conflict");
    expect(first.sealed.split(".")[1]).toBe(await keyId(oldKey));

    const stranger = await relay.signUp("computer");
    const list = await relay.request("GET", "/v1/key-rotations", { token: stranger.deviceToken });
    expect(list.body.rotations).toEqual([]);
  });

  it("forgets a notice the removed device posted, so it cannot hold the slot of the rotation that removes it", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const leaving = await relay.pair(computer.deviceToken, "phone");
    const accountKey = generateKey();
    // Before its removal, a device posts a notice from the account's key that nobody can follow.
    const blocking = await notice("rot-blocking", accountKey);
    expect(
      (await relay.request("POST", "/v1/key-rotations", { token: leaving.deviceToken, body: blocking }))
        .status,
    ).toBe(201);
    await relay.request("DELETE", `/v1/devices/${leaving.deviceId}`, { token: phone.deviceToken });
    const rotation = await notice("rot-after-removal", accountKey);
    expect(
      (await relay.request("POST", "/v1/key-rotations", { token: phone.deviceToken, body: rotation })).status,
    ).toBe(201);
    const list = await relay.request("GET", "/v1/key-rotations", { token: computer.deviceToken });
    expect(list.body.rotations.map((kept: { rotationId: string }) => kept.rotationId)).toEqual([
      "rot-after-removal",
    ]);
  });

  it("refuses a notice that is not a sealed string", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const bad = await relay.request("POST", "/v1/key-rotations", {
      token: computer.deviceToken,
      body: { rotationId: "rot-x", sealed: "e2e1.not-sealed" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
  });
});
