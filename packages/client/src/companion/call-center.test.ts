import { aad, type E2eKey, generateKey, sealDeviceName, sealJson } from "@ringback/e2e-crypto";
import { eventually } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeCallRelay, startFakeCallRelay } from "../../test/fake-call-relay.js";
import { payloadFor } from "../../test/fixtures.js";
import { ringingCall } from "../calls/call-machine.js";
import type { CallRecord, ReadingProblem } from "../calls/call-record.js";
import { ALWAYS_RING } from "../ring-schedule/ring-schedule.js";
import type { KeyValueStore } from "../storage/key-value.js";
import { createMemoryStore } from "../storage/memory-key-value.js";
import { callRecordKey } from "../storage/storage-keys.js";
import { CallCenter, type CallCenterOptions } from "./call-center.js";

const key = generateKey();
let relay: FakeCallRelay;
const centers: CallCenter[] = [];

beforeEach(async () => {
  relay = await startFakeCallRelay();
});

afterEach(async () => {
  for (const center of centers.splice(0)) center.stop();
  await relay.close();
});

interface Device {
  readonly center: CallCenter;
  readonly store: KeyValueStore;
  readonly settled: string[];
  removed: boolean;
}

async function device(
  deviceId: string,
  options: { store?: KeyValueStore; key?: E2eKey } & Partial<CallCenterOptions> = {},
): Promise<Device> {
  const store = options.store ?? createMemoryStore();
  const settled: string[] = [];
  const state: Device = { center: undefined as unknown as CallCenter, store, settled, removed: false };
  const center = new CallCenter({
    store,
    pairing: () => ({
      identity: { accountId: "a1", deviceId, deviceToken: `token-${deviceId}`, serverUrl: relay.origin },
      key: options.key ?? key,
    }),
    schedule: () => ALWAYS_RING,
    prepare: options.prepare,
    fetch: options.fetch,
    onSettled: (eventId) => settled.push(eventId),
    onDeviceRemoved: () => {
      state.removed = true;
    },
  });
  centers.push(center);
  await center.load();
  center.connect();
  await eventually(() => center.view.connection === "open");
  return Object.assign(state, { center });
}

async function publish(eventId: string): Promise<void> {
  relay.publish({
    eventId,
    source: "claude-code",
    occurredAt: new Date().toISOString(),
    receivedAt: new Date().toISOString(),
    taskId: null,
    fromDeviceId: "computer",
    sealed: await sealJson(
      key,
      aad.report(eventId),
      payloadFor({ eventId, occurredAt: new Date().toISOString() }),
    ),
  });
}

const record = (center: CallCenter, eventId: string): CallRecord | undefined =>
  center.view.calls.records[eventId];

describe("the call center, on two devices of one account", () => {
  it("rings both; an answer on one stops the other, which records who answered", async () => {
    const phone = await device("phone");
    const laptop = await device("laptop");
    await publish("e1");
    await eventually(() => ringingCall(phone.center.view.calls)?.eventId === "e1");
    await eventually(() => ringingCall(laptop.center.view.calls)?.eventId === "e1");

    phone.center.ringShown("e1");
    phone.center.answer("e1");
    await eventually(() => record(laptop.center, "e1")?.status.outcome === "answered-elsewhere");
    expect(ringingCall(laptop.center.view.calls)).toBeUndefined();
    expect(record(laptop.center, "e1")?.status.answeredBy?.deviceId).toBe("phone");
    expect(laptop.settled).toContain("e1");
    expect(record(phone.center, "e1")?.status.state).toBe("in-call");
    expect(relay.statusWrites).toEqual(["phone e1 answered"]);
    await eventually(() => relay.deliveries.includes("phone e1 shown"));
  });

  it("reads the devices' sealed names in the delivery records it keeps: the name, or null under another key", async () => {
    await relay.close();
    relay = await startFakeCallRelay(undefined, {
      phone: await sealDeviceName(key, "Zoë's Pixel"),
      tablet: await sealDeviceName(generateKey(), "Someone's tablet"),
    });
    const phone = await device("phone");
    const tablet = await device("tablet");
    const laptop = await device("laptop");
    await publish("e1");
    await eventually(() => ringingCall(laptop.center.view.calls)?.eventId === "e1");
    phone.center.ringShown("e1");
    await eventually(() => ringingCall(tablet.center.view.calls)?.eventId === "e1");
    tablet.center.ringShown("e1");
    const names = () =>
      (record(laptop.center, "e1")?.status.deliveries ?? [])
        .map((entry) => `${entry.deviceId}: ${entry.deviceName} (${entry.deviceKind})`)
        .sort();
    await eventually(() => names().length === 2);
    expect(names()).toEqual(["phone: Zoë's Pixel (phone)", "tablet: null (phone)"]);
    // The phone's own record, as the relay answered its report, is read too.
    const own = () =>
      record(phone.center, "e1")?.status.deliveries?.find((entry) => entry.deviceId === "phone");
    await eventually(() => own());
    expect(own()?.deviceName).toBe("Zoë's Pixel");
  });

  it("keeps the answer across a restart: the same store resumes with Last-Event-ID and does not ring again", async () => {
    const first = await device("phone");
    await publish("e1");
    await eventually(() => ringingCall(first.center.view.calls)?.eventId === "e1");
    first.center.answer("e1");
    first.center.hangUp("e1");
    await eventually(() => relay.statusWrites.includes("phone e1 ended"));
    await first.center.persisted();
    first.center.stop();

    const again = await device("phone", { store: first.store });
    expect(relay.resumedFrom.at(-1)).not.toBeNull();
    await publish("e2");
    await eventually(() => ringingCall(again.center.view.calls)?.eventId === "e2");
    expect(record(again.center, "e1")?.status.state).not.toBe("ringing");
    expect(Object.keys(again.center.view.calls.records).sort()).toEqual(["e1", "e2"]);
  });

  it("rings once preparation is done; a failed preparation leaves the call failed until retried", async () => {
    let release: () => void = () => undefined;
    const prepared = new Promise<void>((resolve) => {
      release = resolve;
    });
    const problem: ReadingProblem = { kind: "engine-failed" };
    let isFailing = true;
    const slow = await device("phone", {
      prepare: async () => {
        await prepared;
        return null;
      },
    });
    const failing = await device("laptop", { prepare: async () => (isFailing ? problem : null) });
    await publish("e1");
    await eventually(() => record(slow.center, "e1")?.status.state === "preparing");
    await eventually(() => record(failing.center, "e1")?.status.state === "failed");
    expect(record(failing.center, "e1")?.status.failure).toEqual(problem);
    expect(ringingCall(slow.center.view.calls)).toBeUndefined();
    expect(ringingCall(failing.center.view.calls)).toBeUndefined();
    release();
    await eventually(() => ringingCall(slow.center.view.calls)?.eventId === "e1");
    isFailing = false;
    failing.center.retry("e1");
    await eventually(() => ringingCall(failing.center.view.calls)?.eventId === "e1");
  });

  it("lists a call sealed with another key as unreadable, without content", async () => {
    const stranger = await device("phone", { key: generateKey() });
    await publish("e1");
    await eventually(() => stranger.center.view.unreadable.length === 1);
    expect(stranger.center.view.unreadable[0]).toEqual({ eventId: "e1", problem: "key_mismatch" });
    expect(record(stranger.center, "e1")).toBeUndefined();
  });

  it("follows the account's key rotation when a call is sealed under a key it does not hold, then rings it", async () => {
    let held = generateKey();
    let isRotated = false;
    const center = new CallCenter({
      store: createMemoryStore(),
      pairing: () => ({
        identity: {
          accountId: "a1",
          deviceId: "laptop",
          deviceToken: "token-laptop",
          serverUrl: relay.origin,
        },
        key: held,
      }),
      schedule: () => ALWAYS_RING,
      onDeviceRemoved: () => undefined,
      // The relay's notices: none at connect; then another device removed one and rotated to `key`.
      catchUpKey: async () => {
        if (!isRotated || held === key) return false;
        held = key;
        return true;
      },
    });
    centers.push(center);
    await center.load();
    center.connect();
    await eventually(() => center.view.connection === "open");
    isRotated = true;
    await publish("e1");
    await eventually(() => ringingCall(center.view.calls)?.eventId === "e1");
    expect(center.view.unreadable).toEqual([]);
  });

  it("acknowledges missed calls at once on every device", async () => {
    const phone = await device("phone");
    const laptop = await device("laptop");
    await publish("e1");
    await eventually(() => ringingCall(phone.center.view.calls)?.eventId === "e1");
    phone.center.setAside("e1");
    await eventually(() => record(phone.center, "e1")?.status.state === "missed");
    phone.center.acknowledgeAll(["e1"]);
    await eventually(() => record(laptop.center, "e1")?.status.outcome === "acknowledged-elsewhere");
    expect(relay.statusWrites).toEqual(["phone e1 acknowledged"]);
  });
});

describe("the call center and the device's storage", () => {
  it("tells the relay a call was shown or answered only once the record saying so is stored", async () => {
    // A page closed between the two would ring the call again after a reload and lose the report the relay refused.
    const memory = createMemoryStore();
    // Writes land an event-loop turn late, as IndexedDB's do: a request sent while one is under way is seen.
    const store: KeyValueStore = {
      ...memory,
      set: async (key, value) => {
        await new Promise((resolve) => setImmediate(resolve));
        await memory.set(key, value);
      },
    };
    const sent: { what: string; stored: Partial<CallRecord["status"]> | undefined }[] = [];
    const watched: typeof fetch = async (input, init) => {
      const isCallWrite = /\/v1\/calls\/e1\/(status|deliveries)$/.test(String(input));
      if (isCallWrite) {
        const body = JSON.parse(String(init?.body)) as { status?: string; outcome?: string };
        const stored = (await memory.get<CallRecord>(callRecordKey("e1")))?.status;
        sent.push({
          what: body.status ?? body.outcome ?? "",
          stored: stored && { state: stored.state, deliveryReports: stored.deliveryReports },
        });
      }
      return fetch(input, init);
    };
    const phone = await device("phone", { store, fetch: watched });
    await publish("e1");
    await eventually(() => ringingCall(phone.center.view.calls)?.eventId === "e1");
    phone.center.ringShown("e1");
    await eventually(() => relay.deliveries.includes("phone e1 shown"));
    phone.center.answer("e1");
    await eventually(() => relay.deliveries.includes("phone e1 opened"));
    await eventually(() => relay.statusWrites.includes("phone e1 answered"));

    expect(sent[0]).toEqual({
      what: "shown",
      stored: { state: "ringing", deliveryReports: { shown: "pending" } },
    });
    // Answering sends both at once; either may go first.
    expect(sent.slice(1)).toHaveLength(2);
    expect(sent.slice(1)).toEqual(
      expect.arrayContaining([
        { what: "answered", stored: expect.objectContaining({ state: "in-call" }) },
        {
          what: "opened",
          stored: { state: "in-call", deliveryReports: expect.objectContaining({ opened: "pending" }) },
        },
      ]),
    );
  });
});
