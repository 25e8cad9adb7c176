import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { CALL_EXPIRY_DEFAULT_MS, DEFAULT_RELAY_CONFIG } from "../src/relay-config.js";
import { pruneHistory, sweepExpired } from "../src/runtime/sweeper.js";
import { eventBody } from "./support/in-process-relay.js";
import { type SocketRelay, socketRelay } from "./support/socket-relay.js";

const RETENTION_MS = DEFAULT_RELAY_CONFIG.retentionMs;

/** Every row of every table in the relay's SQLite file that mentions `text` anywhere, read from the file itself. */
function rowsMentioning(relay: SocketRelay, text: string): string[] {
  const db = new DatabaseSync(join(relay.dataDir, "relay.db"), { readOnly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all()
      .map((row) => String(row.name));
    return tables.flatMap((table) =>
      db
        .prepare(`SELECT * FROM "${table}"`)
        .all()
        .map((row) => `${table}: ${JSON.stringify(row)}`)
        .filter((line) => line.includes(text)),
    );
  } finally {
    db.close();
  }
}

/** A phone joining the account of `token` under `deviceName`. */
async function pairPhone(relay: SocketRelay, token: string, deviceName: string) {
  const code = await relay.request("POST", "/v1/pairing-codes", { token });
  const joined = await relay.request("POST", "/v1/pairing-codes/redeem", {
    body: { code: code.body.code, deviceName, deviceKind: "phone" },
  });
  expect(joined.status).toBe(201);
  return joined.body as { deviceId: string; deviceToken: string };
}

/** The relay's own upkeep, as its timers run it: expiry, then pruning what is past the retention. */
async function upkeep(relay: SocketRelay): Promise<void> {
  await sweepExpired(relay.server.relay.runtime);
  await pruneHistory(relay.server.relay.runtime);
}

describe("what a removed device or account leaves behind", () => {
  it("keeps nothing of a removed device once the retention has passed since its removal", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const phoneName = "phone-of-a-former-partner";
    const phone = await pairPhone(relay, computer.deviceToken, phoneName);
    const post = (eventId: string) =>
      relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody(eventId) });
    const asPhone = (path: string, body: unknown) =>
      relay.request("POST", path, { token: phone.deviceToken, body });
    // A call the phone answered and ended, one it was shown and one it replied to, both still open when removed.
    expect((await post("ev-answered")).status).toBe(201);
    expect((await asPhone("/v1/calls/ev-answered/status", { status: "answered" })).status).toBe(200);
    expect((await asPhone("/v1/calls/ev-answered/status", { status: "ended" })).status).toBe(200);
    expect((await post("ev-open")).status).toBe(201);
    expect((await asPhone("/v1/calls/ev-open/deliveries", { outcome: "shown" })).status).toBe(200);
    expect(
      (await asPhone("/v1/calls/ev-open/replies", { replyId: "r1", sealed: "e2e1.k.iv.reply" })).status,
    ).toBe(202);
    expect((await relay.request("POST", "/v1/pairing-codes", { token: phone.deviceToken })).status).toBe(201);
    expect(rowsMentioning(relay, phone.deviceId).length).toBeGreaterThan(0);
    expect(rowsMentioning(relay, phoneName).length).toBeGreaterThan(0);

    const removed = await relay.request("DELETE", `/v1/devices/${phone.deviceId}`, {
      token: computer.deviceToken,
    });
    expect(removed.status).toBe(200);
    // The open call rings on (and expires) after the removal: its records are younger than the removal.
    relay.clock.advance(CALL_EXPIRY_DEFAULT_MS);
    await upkeep(relay);
    relay.clock.advance(RETENTION_MS - CALL_EXPIRY_DEFAULT_MS + 1);
    await upkeep(relay);

    expect(rowsMentioning(relay, phone.deviceId)).toEqual([]);
    expect(rowsMentioning(relay, phoneName)).toEqual([]);
    // The account and its computer go on.
    expect(
      (await relay.request("GET", "/v1/devices", { token: computer.deviceToken })).body.devices,
    ).toHaveLength(1);
    expect((await post("ev-later")).status).toBe(201);
  });

  it("keeps nothing of an account whose devices were all removed, once the retention has passed", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const phone = await pairPhone(relay, computer.deviceToken, "phone-of-a-closed-account");
    const account = computer.accountId;
    expect(
      (
        await relay.request("POST", "/v1/daemon/events", {
          token: computer.deviceToken,
          body: eventBody("ev1"),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await relay.request("POST", "/v1/calls/ev1/deliveries", {
          token: phone.deviceToken,
          body: { outcome: "shown" },
        })
      ).status,
    ).toBe(200);
    for (const device of [phone, computer]) {
      const removed = await relay.request("DELETE", `/v1/devices/${device.deviceId}`, {
        token: device.deviceToken,
      });
      expect(removed.status).toBe(200);
    }
    expect(rowsMentioning(relay, account).length).toBeGreaterThan(0);

    relay.clock.advance(CALL_EXPIRY_DEFAULT_MS);
    await upkeep(relay);
    relay.clock.advance(RETENTION_MS - CALL_EXPIRY_DEFAULT_MS + 1);
    await upkeep(relay);

    expect(rowsMentioning(relay, account)).toEqual([]);
    expect(rowsMentioning(relay, computer.deviceId)).toEqual([]);
    expect(rowsMentioning(relay, phone.deviceId)).toEqual([]);
  });
});
