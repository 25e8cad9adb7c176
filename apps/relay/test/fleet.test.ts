import { aad, generateKey, openFleetState, sealFleetState, sealString } from "@ringback/e2e-crypto";
import {
  FLEET_PAD_STEP_BYTES,
  FLEET_SEALED_PLAINTEXT_MAX_BYTES,
  type FleetState,
  RelayedFleet,
} from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { FLEET_PUT_MIN_INTERVAL_MS } from "../src/routes/fleet.js";
import { inProcessRelay } from "./support/in-process-relay.js";
import { socketRelay } from "./support/socket-relay.js";
import { SseClient } from "./support/sse-client.js";

const key = generateKey();

function fleetOf(version: number, project = "payments"): FleetState {
  return {
    version,
    updatedAt: "2026-01-01T09:00:00.000Z",
    agents: [
      {
        agentId: "claude-code:session-1",
        source: "claude-code",
        project,
        state: "working",
        since: "2026-01-01T08:50:00.000Z",
        eventId: null,
        headline: null,
      },
    ],
  };
}

async function sealedFleet(computerId: string, version: number, project?: string) {
  return { sealed: await sealFleetState(key, computerId, fleetOf(version, project), FLEET_PAD_STEP_BYTES) };
}

describe("PUT /v1/daemon/fleet: a computer's sealed, padded state, and nothing else", () => {
  it("keeps the latest state of each computer for every device of the account, and no other account's", async () => {
    await using relay = await inProcessRelay();
    const laptop = await relay.signUp("computer");
    const desktop = await relay.pair(laptop.deviceToken, "computer");
    const phone = await relay.pair(laptop.deviceToken, "phone");
    const stranger = await relay.signUp("phone");

    const first = await relay.request("PUT", "/v1/daemon/fleet", {
      token: laptop.deviceToken,
      body: await sealedFleet(laptop.deviceId, 1),
    });
    expect(first.status).toBe(200);
    relay.clock.advance(FLEET_PUT_MIN_INTERVAL_MS);
    const latest = await sealedFleet(laptop.deviceId, 2);
    expect(
      (await relay.request("PUT", "/v1/daemon/fleet", { token: laptop.deviceToken, body: latest })).status,
    ).toBe(200);
    const other = await sealedFleet(desktop.deviceId, 1, "docs");
    expect(
      (await relay.request("PUT", "/v1/daemon/fleet", { token: desktop.deviceToken, body: other })).status,
    ).toBe(200);

    const fleet = RelayedFleet.parse(
      (await relay.request("GET", "/v1/fleet", { token: phone.deviceToken })).body,
    );
    const byComputer = new Map(fleet.computers.map((state) => [state.computerId, state]));
    expect(byComputer.size).toBe(2);
    expect(byComputer.get(laptop.deviceId)?.sealed).toBe(latest.sealed);
    expect(await openFleetState(key, laptop.deviceId, latest.sealed)).toEqual(fleetOf(2));
    expect(byComputer.get(desktop.deviceId)?.sealed).toBe(other.sealed);
    expect(byComputer.get(laptop.deviceId)?.receivedAt).toBe(new Date(relay.clock.now()).toISOString());

    const strangers = await relay.request("GET", "/v1/fleet", { token: stranger.deviceToken });
    expect(strangers.body).toEqual({ computers: [] });
    expect((await relay.request("GET", "/v1/fleet", {})).status).toBe(401);
    expect(relay.logs.join("\n")).not.toContain(latest.sealed);
  });

  it("refuses a browser or a phone putting a state (403 computer_only)", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    for (const kind of ["browser", "phone"] as const) {
      const device = await relay.pair(computer.deviceToken, kind);
      const put = await relay.request("PUT", "/v1/daemon/fleet", {
        token: device.deviceToken,
        body: await sealedFleet(device.deviceId, 1),
      });
      expect(put.status).toBe(403);
      expect(put.body.error.code).toBe("computer_only");
    }
    const fleet = await relay.request("GET", "/v1/fleet", { token: computer.deviceToken });
    expect(fleet.body).toEqual({ computers: [] });
  });

  it("never lets a computer of another account into the account's fleet", async () => {
    await using relay = await inProcessRelay();
    const ours = await relay.signUp("computer");
    const phone = await relay.pair(ours.deviceToken, "phone");
    const theirs = await relay.signUp("computer");
    // Sealed as ours, put with their token: it lands in their account, under their id, never in ours.
    const put = await relay.request("PUT", "/v1/daemon/fleet", {
      token: theirs.deviceToken,
      body: await sealedFleet(ours.deviceId, 1),
    });
    expect(put.status).toBe(200);
    expect(put.body.computerId).toBe(theirs.deviceId);
    expect((await relay.request("GET", "/v1/fleet", { token: phone.deviceToken })).body).toEqual({
      computers: [],
    });
    const theirFleet = await relay.request("GET", "/v1/fleet", { token: theirs.deviceToken });
    expect(theirFleet.body.computers.map((state: { computerId: string }) => state.computerId)).toEqual([
      theirs.deviceId,
    ]);
  });

  it.each([
    ["not sealed", async () => "a plain fleet state"],
    ["a sealed-looking text that does not parse", async () => "e2e1.not.sealed.text"],
    [
      "not padded (the JSON as it is)",
      async () => sealString(key, aad.fleet("dev_x"), JSON.stringify(fleetOf(1))),
    ],
    [
      "padded to a wrong step",
      async () =>
        sealString(key, aad.fleet("dev_x"), JSON.stringify(fleetOf(1)).padEnd(FLEET_PAD_STEP_BYTES + 512)),
    ],
    ["empty", async () => sealString(key, aad.fleet("dev_x"), "")],
    [
      "one step over the largest state",
      async () =>
        sealFleetState(
          key,
          "dev_x",
          { ...fleetOf(1), pad: "x".repeat(FLEET_SEALED_PLAINTEXT_MAX_BYTES) },
          FLEET_PAD_STEP_BYTES,
        ),
    ],
  ])("refuses a state %s (400 invalid_request), keeping the last one", async (_case, sealedText) => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const kept = await sealedFleet(computer.deviceId, 1);
    await relay.request("PUT", "/v1/daemon/fleet", { token: computer.deviceToken, body: kept });
    relay.clock.advance(FLEET_PUT_MIN_INTERVAL_MS);
    const put = await relay.request("PUT", "/v1/daemon/fleet", {
      token: computer.deviceToken,
      body: { sealed: await sealedText() },
    });
    expect(put.status).toBe(400);
    expect(put.body.error.code).toBe("invalid_request");
    const fleet = await relay.request("GET", "/v1/fleet", { token: computer.deviceToken });
    expect(fleet.body.computers.map((state: { sealed: string }) => state.sealed)).toEqual([kept.sealed]);
  });

  it("refuses a body far over the largest state before reading it (413 payload_too_large)", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const put = await relay.request("PUT", "/v1/daemon/fleet", {
      token: computer.deviceToken,
      body: { sealed: `e2e1.${"A".repeat(128 * 1024)}` },
    });
    expect(put.status).toBe(413);
    expect(put.body.error.code).toBe("payload_too_large");
  });

  it("takes one state per second per computer: faster is 429 rate_limited with Retry-After", async () => {
    await using relay = await inProcessRelay();
    const laptop = await relay.signUp("computer");
    const desktop = await relay.pair(laptop.deviceToken, "computer");
    const put = async (device: { deviceId: string; deviceToken: string }, version: number) =>
      relay.request("PUT", "/v1/daemon/fleet", {
        token: device.deviceToken,
        body: await sealedFleet(device.deviceId, version),
      });
    expect((await put(laptop, 1)).status).toBe(200);
    relay.clock.advance(400);
    const tooFast = await put(laptop, 2);
    expect(tooFast.status).toBe(429);
    expect(tooFast.body.error.code).toBe("rate_limited");
    expect(tooFast.headers.get("retry-after")).toBe("1");
    // Another computer of the account has its own second.
    expect((await put(desktop, 1)).status).toBe(200);
    relay.clock.advance(FLEET_PUT_MIN_INTERVAL_MS - 400);
    expect((await put(laptop, 3)).status).toBe(200);
    const fleet = await relay.request("GET", "/v1/fleet", { token: laptop.deviceToken });
    const laptopState = fleet.body.computers.find(
      (state: { computerId: string }) => state.computerId === laptop.deviceId,
    );
    expect(await openFleetState(key, laptop.deviceId, laptopState.sealed)).toEqual(fleetOf(3));
  });

  it("forgets a computer's state when the computer is removed", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    await relay.request("PUT", "/v1/daemon/fleet", {
      token: computer.deviceToken,
      body: await sealedFleet(computer.deviceId, 1),
    });
    expect(
      (await relay.request("GET", "/v1/fleet", { token: phone.deviceToken })).body.computers,
    ).toHaveLength(1);
    await relay.request("DELETE", `/v1/devices/${computer.deviceId}`, { token: phone.deviceToken });
    expect((await relay.request("GET", "/v1/fleet", { token: phone.deviceToken })).body).toEqual({
      computers: [],
    });
    expect(await relay.store.fleetState(phone.accountId, computer.deviceId)).toBeNull();
  });
});

describe("SSE fleet events", () => {
  it("sends a device each computer's state after synced on every connect, and new states live", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const first = await sealedFleet(computer.deviceId, 1);
    await relay.request("PUT", "/v1/daemon/fleet", { token: computer.deviceToken, body: first });

    using stream = new SseClient(relay.url, phone.deviceToken);
    const onConnect = await stream.waitFor("fleet", (data) => data.sealed === first.sealed);
    const types = stream.events.map((event) => event.type);
    expect(types.indexOf("fleet")).toBeGreaterThan(types.indexOf("synced"));
    expect(onConnect.id).toBe("");
    expect(onConnect.data).toEqual({
      computerId: computer.deviceId,
      sealed: first.sealed,
      receivedAt: new Date(relay.clock.now()).toISOString(),
    });

    relay.clock.advance(FLEET_PUT_MIN_INTERVAL_MS);
    const second = await sealedFleet(computer.deviceId, 2);
    await relay.request("PUT", "/v1/daemon/fleet", { token: computer.deviceToken, body: second });
    await stream.waitFor("fleet", (data) => data.sealed === second.sealed);

    // The relay ends the stream (its maximum duration): the device reconnects and gets the latest after synced.
    relay.server.relay.runtime.hub.tick({ maxDurationMs: 0, stallMs: 60_000 });
    await stream.waitForSynced(2);
    const afterReconnect = await stream.waitUntil(
      () =>
        stream.events
          .slice(stream.events.findLastIndex((event) => event.type === "synced"))
          .find((event) => event.type === "fleet"),
      "the fleet state after the second synced",
    );
    expect(afterReconnect.data.sealed).toBe(second.sealed);
    expect(stream.opens).toBe(2);
  });
});
