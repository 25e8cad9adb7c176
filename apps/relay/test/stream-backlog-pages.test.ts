import { RELAY_SSE_EVENTS } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { STREAM_PAGE_ENTRIES } from "../src/runtime/stream-hub.js";
import { startRelayServer } from "../src/server.js";
import { openPostgresStore } from "../src/store/postgres-store.js";
import { openSqliteStore } from "../src/store/sqlite-store.js";
import type { RelayStore } from "../src/store/store.js";
import { ROOMY_EVENT_LIMITS } from "./store-contract/contract-fixtures.js";
import { FakeClock } from "./support/fake-clock.js";
import { captureLog, deviceSteps, requestAt } from "./support/in-process-relay.js";
import { describePostgres, postgresSchema } from "./support/postgres-schema.js";
import { pausedStream } from "./support/sse-backlog.js";

/** As the audit did: a backlog of thousands of calls, big enough that no socket buffer holds it. */
const BACKLOG_CALLS = 5_000;
const SEALED = `e2e1.k.iv.${"x".repeat(8 * 1024)}`;
const STREAM_READS = ["streamSince", "pendingCalls", "streamPage", "pendingCallsPage"] as const;

/** One read of an account's stream the relay asked of its store, and how many entries it got. */
interface StreamRead {
  readonly method: (typeof STREAM_READS)[number];
  readonly entries: number;
}

/** The store, with every stream read it is asked for recorded. */
function recordingStore(store: RelayStore, reads: StreamRead[]): RelayStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      const method = STREAM_READS.find((read) => read === name);
      if (!method || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const result = await value.apply(target, args);
        reads.push({ method, entries: result.entries.length });
        return result;
      };
    },
  });
}

/** A relay on `store` (recorded), listening on 127.0.0.1, with an account of a computer and a phone. */
async function relayWithBacklog(store: RelayStore, reads: StreamRead[]) {
  const clock = new FakeClock();
  const server = await startRelayServer({
    host: "127.0.0.1",
    port: 0,
    store: recordingStore(store, reads),
    clock,
    log: captureLog().log,
    config: { openSignup: true },
  });
  const steps = deviceSteps(requestAt(server.url));
  const computer = await steps.signUp("computer");
  const phone = await steps.pair(computer.deviceToken, "phone");
  // Stored as the daemon's posts and the devices' writes would store them (the HTTP route would rate them).
  await Promise.all(
    Array.from({ length: BACKLOG_CALLS }, (_, index) =>
      store.appendEvent({
        accountId: computer.accountId,
        eventId: `ev${index}`,
        source: "claude-code",
        occurredAt: new Date(clock.now()).toISOString(),
        taskId: null,
        fromDeviceId: computer.deviceId,
        sealed: SEALED,
        receivedAt: clock.now(),
        expiresAt: clock.now() + 24 * 60 * 60 * 1000,
        limits: ROOMY_EVENT_LIMITS,
      }),
    ),
  );
  // Every tenth call shown on the phone, then half of those ended (erased) and half answered.
  const touched = Array.from({ length: BACKLOG_CALLS / 10 }, (_, index) => index * 10);
  await Promise.all(
    touched.map(async (index) => {
      const eventId = `ev${index}`;
      await store.recordDelivery({
        accountId: computer.accountId,
        eventId,
        deviceId: phone.deviceId,
        outcome: "shown",
        now: clock.now(),
      });
      await store.setCallStatus({
        accountId: computer.accountId,
        eventId,
        deviceId: phone.deviceId,
        status: index % 20 === 0 ? "ended" : "answered",
        now: clock.now(),
        answeredExpiresAt: clock.now() + 24 * 60 * 60 * 1000,
      });
    }),
  );
  return { server, computer, phone };
}

/**
 * Connects with `lastEventId`, holds the stream unread until the relay has more written than the client took, then
 * reads it to `synced`: every entry the store holds for it arrives once, in seq order, and the store was only ever
 * asked for pages, fewer of them while the client did not read than the whole backlog takes.
 */
async function expectPagedBacklog(
  store: RelayStore,
  reads: StreamRead[],
  setup: Awaited<ReturnType<typeof relayWithBacklog>>,
  lastEventId: number | null,
) {
  const { server, phone } = setup;
  const whole =
    lastEventId === null
      ? await store.pendingCalls(phone.accountId)
      : await store.streamSince(phone.accountId, lastEventId);
  const pagesNeeded = Math.ceil(whole.entries.length / STREAM_PAGE_ENTRIES);
  expect(pagesNeeded).toBeGreaterThan(10);
  reads.length = 0;

  const stream = pausedStream(server.url, phone.deviceToken, lastEventId);
  const response = await stream.started;
  try {
    expect(response.statusCode).toBe(200);
    await eventually(() => server.relay.runtime.hub.stats().pendingBytes > 0, {
      what: "the relay to have written more than the paused client took",
    });
    // Stalled on the client: what the store was asked for so far is a part of the backlog, not all of it.
    const entriesReadWhilePaused = reads.reduce((sum, read) => sum + read.entries, 0);
    expect(entriesReadWhilePaused).toBeLessThan(whole.entries.length);

    response.resume();
    await eventually(() => stream.events.at(-1)?.type === RELAY_SSE_EVENTS.synced, {
      what: "the whole backlog and `synced`",
      checks: 3_000,
    });
    const sent = stream.events.filter((event) => event.type !== RELAY_SSE_EVENTS.synced);
    expect(sent.map((event) => Number(event.id))).toEqual(whole.entries.map((entry) => entry.seq));
    expect(stream.events.at(-1)?.id).toBe(String(whole.headSeq));
    expect(reads.every((read) => read.method === "streamPage" || read.method === "pendingCallsPage")).toBe(
      true,
    );
    expect(Math.max(...reads.map((read) => read.entries))).toBeLessThanOrEqual(STREAM_PAGE_ENTRIES);
    expect(reads.length).toBeGreaterThanOrEqual(pagesNeeded);
  } finally {
    stream.close();
  }
}

function describeBacklogPages(
  name: string,
  openStore: () => Promise<{ store: RelayStore } & AsyncDisposable>,
) {
  describe(`a stream's backlog, ${name}`, () => {
    it("is read from the store a page at a time and written as the client takes it, completely and in order", async () => {
      await using opened = await openStore();
      const reads: StreamRead[] = [];
      const setup = await relayWithBacklog(opened.store, reads);
      try {
        await expectPagedBacklog(opened.store, reads, setup, 0);
        // Without a resume point: the open calls (about 4,750 of them), paged the same way.
        await expectPagedBacklog(opened.store, reads, setup, null);
      } finally {
        await setup.server.close();
      }
    }, 120_000);
  });
}

describeBacklogPages("SQLite", async () => {
  const dir = await makeTemporaryDirectory();
  const store = openSqliteStore(dir.path);
  return {
    store,
    async [Symbol.asyncDispose]() {
      await store.close();
      await dir.remove();
    },
  };
});

describePostgres("on PostgreSQL", () => {
  describeBacklogPages("PostgreSQL", async () => {
    const schema = await postgresSchema();
    const store = await openPostgresStore(schema.url);
    return {
      store,
      async [Symbol.asyncDispose]() {
        await store.close();
        await schema.drop();
      },
    };
  });
});
