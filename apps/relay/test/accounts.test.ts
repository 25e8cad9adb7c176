import { describe, expect, it } from "vitest";
import { hashSecret } from "../src/runtime/secrets.js";
import { inProcessRelay } from "./support/in-process-relay.js";

describe("health and setup", () => {
  it("reports the store and its migration version", async () => {
    await using relay = await inProcessRelay();
    const health = await relay.request("GET", "/v1/health");
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ ok: true, store: "sqlite", migrationVersion: 10, disk: null });
  });

  it("tells the web app whether a claim code is needed", async () => {
    await using closed = await inProcessRelay({ openSignup: false });
    expect((await closed.request("GET", "/v1/setup")).body).toEqual({
      claimRequired: true,
      openSignup: false,
    });
    await using open = await inProcessRelay({ openSignup: true });
    expect((await open.request("GET", "/v1/setup")).body).toEqual({ claimRequired: false, openSignup: true });
  });

  it("answers an unknown API path with the error envelope", async () => {
    await using relay = await inProcessRelay();
    const response = await relay.request("GET", "/v1/nothing-here");
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("not_found");
  });
});

describe("accounts with a claim code", () => {
  async function unclaimedRelay() {
    const relay = await inProcessRelay({ openSignup: false });
    await relay.store.setClaimCodeHash(hashSecret("123456789"));
    return relay;
  }
  const body = (claimCode?: string) => ({ deviceName: "laptop", deviceKind: "computer", claimCode });

  it("requires the claim code for the first account", async () => {
    await using relay = await unclaimedRelay();
    const missing = await relay.request("POST", "/v1/accounts", { body: body() });
    expect(missing.status).toBe(403);
    expect(missing.body.error.code).toBe("claim_code_required");
    const wrong = await relay.request("POST", "/v1/accounts", { body: body("111-111-111") });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe("claim_code_required");
  });

  it("creates the owner's account with the code as printed, then refuses new accounts", async () => {
    await using relay = await unclaimedRelay();
    const created = await relay.request("POST", "/v1/accounts", { body: body("123-456-789") });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      accountId: expect.stringMatching(/^acc_/),
      deviceId: expect.stringMatching(/^dev_/),
      deviceToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect((await relay.request("GET", "/v1/setup")).body.claimRequired).toBe(false);
    const again = await relay.request("POST", "/v1/accounts", { body: body("123-456-789") });
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe("claim_code_required");
    expect(again.body.error.message).toMatch(/pairing code/);
  });

  it("limits wrong claim codes per address", async () => {
    await using relay = await unclaimedRelay();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await relay.request("POST", "/v1/accounts", { body: body("000000000") })).status).toBe(403);
    }
    const limited = await relay.request("POST", "/v1/accounts", { body: body("123456789") });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
  });

  it("never logs the claim code or the device token", async () => {
    await using relay = await unclaimedRelay();
    const created = await relay.request("POST", "/v1/accounts", { body: body("123 456 789") });
    const logs = relay.logs.join("\n");
    expect(logs).toContain("account created");
    expect(logs).not.toMatch(/123.?456.?789/);
    expect(logs).not.toContain(created.body.deviceToken);
  });
});

describe("accounts with open signup", () => {
  it("creates accounts without a claim code", async () => {
    await using relay = await inProcessRelay({ openSignup: true });
    const first = await relay.signUp();
    const second = await relay.signUp();
    expect(first.accountId).not.toBe(second.accountId);
  });

  it("refuses a malformed request with invalid_request", async () => {
    await using relay = await inProcessRelay();
    const bad = await relay.request("POST", "/v1/accounts", {
      body: { deviceName: "x", deviceKind: "toaster" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    const notJson = await relay.request("POST", "/v1/accounts", { body: "{nope" });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.message).toBe("The body is not JSON.");
  });
});

describe("device tokens and devices", () => {
  it("answers 401 device_removed without a token or with an unknown one", async () => {
    await using relay = await inProcessRelay();
    for (const token of [undefined, "not-a-token"]) {
      const response = await relay.request("GET", "/v1/devices", token ? { token } : {});
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe("device_removed");
    }
  });

  it("lists the account's devices with the current one marked", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    await relay.signUp("computer");
    const list = await relay.request("GET", "/v1/devices", { token: phone.deviceToken });
    expect(list.status).toBe(200);
    expect(list.body.devices).toEqual([
      {
        id: computer.deviceId,
        name: "my computer",
        kind: "computer",
        createdAt: "2026-01-01T09:00:00.000Z",
        lastSeenAt: "2026-01-01T09:00:00.000Z",
        online: false,
        isCurrent: false,
      },
      {
        id: phone.deviceId,
        name: "my phone",
        kind: "phone",
        createdAt: "2026-01-01T09:00:00.000Z",
        lastSeenAt: "2026-01-01T09:00:00.000Z",
        online: false,
        isCurrent: true,
      },
    ]);
  });

  it("gives a removed device 401 on everything, for good", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const removed = await relay.request("DELETE", `/v1/devices/${phone.deviceId}`, {
      token: computer.deviceToken,
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ deviceId: phone.deviceId, removed: true });
    for (const [method, path] of [
      ["GET", "/v1/devices"],
      ["POST", "/v1/pairing-codes"],
      ["GET", "/v1/stream"],
      ["GET", "/v1/calls/ev1"],
    ] as const) {
      const response = await relay.request(method, path, { token: phone.deviceToken });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body.error.code).toBe("device_removed");
    }
    const list = await relay.request("GET", "/v1/devices", { token: computer.deviceToken });
    expect(list.body.devices.map((d: { id: string }) => d.id)).toEqual([computer.deviceId]);
  });

  it("does not remove a device of another account", async () => {
    await using relay = await inProcessRelay();
    const mine = await relay.signUp();
    const theirs = await relay.signUp();
    const response = await relay.request("DELETE", `/v1/devices/${theirs.deviceId}`, {
      token: mine.deviceToken,
    });
    expect(response.status).toBe(404);
    expect((await relay.request("GET", "/v1/devices", { token: theirs.deviceToken })).status).toBe(200);
  });
});

describe("cross-origin access", () => {
  it("answers a browser's preflight for the API from any origin", async () => {
    await using relay = await inProcessRelay();
    const preflight = await relay.request("OPTIONS", "/v1/devices", {
      headers: {
        Origin: "http://localhost:5173",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });
});
