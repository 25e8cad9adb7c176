import { generateKey } from "@ringback/e2e-crypto";
import { eventually, freePort } from "@ringback/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeCallRelay } from "../../test/fake-call-relay.js";
import { RELAY_UNREACHABLE_AFTER_MS } from "../relay/relay-reach.js";
import { ALWAYS_RING } from "../ring-schedule/ring-schedule.js";
import type { Timers } from "../runtime/timers.js";
import { createMemoryStore } from "../storage/memory-key-value.js";
import { CallCenter } from "./call-center.js";

const OPENED_AT = Date.parse("2026-03-02T10:00:00.000Z");
const centers: CallCenter[] = [];

afterEach(() => {
  for (const center of centers.splice(0)) center.stop();
});

/** Timers that run nothing by themselves: the test runs a timeout when it chooses (`due`). */
function heldTimers() {
  const timeouts: { callback: () => void; delayMs: number }[] = [];
  const timers: Timers = {
    setTimeout: (callback, delayMs) => timeouts.push({ callback, delayMs }),
    clearTimeout: () => undefined,
    setInterval: () => undefined,
    clearInterval: () => undefined,
  };
  return { timers, due: (delayMs: number) => timeouts.filter((timeout) => timeout.delayMs === delayMs) };
}

async function connectedCenter(serverUrl: string, now: () => number, timers: Timers): Promise<CallCenter> {
  const center = new CallCenter({
    store: createMemoryStore(),
    pairing: () => ({
      identity: { accountId: "a1", deviceId: "phone", deviceToken: "token-phone", serverUrl },
      key: generateKey(),
    }),
    schedule: () => ALWAYS_RING,
    now: () => new Date(now()),
    timers,
    onDeviceRemoved: () => undefined,
  });
  centers.push(center);
  await center.load();
  center.connect();
  return center;
}

describe("the call center says when its relay is out of reach", () => {
  it("at once, when nothing answers at the relay's address from the start", async () => {
    const { timers } = heldTimers();
    const center = await connectedCenter(`http://127.0.0.1:${await freePort()}`, () => OPENED_AT, timers);
    await eventually(() => center.view.relayUnreachableSince !== null);
    expect(center.view).toMatchObject({
      connection: "offline",
      relayUnreachableSince: "2026-03-02T10:00:00.000Z",
    });
  });

  it("once the stream of a relay it reached has failed for the limit on its clock, from the first failure", async () => {
    const relay = await startFakeCallRelay();
    const { timers, due } = heldTimers();
    let now = OPENED_AT;
    const center = await connectedCenter(relay.origin, () => now, timers);
    await eventually(() => center.view.connection === "open");
    expect(center.view.relayUnreachableSince).toBeNull();

    now += 60_000;
    await relay.close();
    await eventually(() => center.view.connection === "offline");
    expect(center.view.relayUnreachableSince).toBeNull();
    const [limit] = due(RELAY_UNREACHABLE_AFTER_MS);
    now += RELAY_UNREACHABLE_AFTER_MS;
    limit?.callback();
    expect(center.view.relayUnreachableSince).toBe("2026-03-02T10:01:00.000Z");
  });
});
