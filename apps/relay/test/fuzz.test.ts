import {
  dribbleHeaders,
  fuzzInProcess,
  fuzzRawSocket,
  fuzzSeed,
  hostileRequests,
  type RouteShape,
  secretInLines,
} from "@ringback/hostile-input";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventBody, inProcessRelay } from "./support/in-process-relay.js";
import { socketRelay } from "./support/socket-relay.js";

/** Every route of the relay's API, with its body's field names so validation is reached. */
const ROUTES: readonly RouteShape[] = [
  { method: "GET", path: "/v1/health" },
  { method: "GET", path: "/v1/setup" },
  { method: "POST", path: "/v1/accounts", fields: ["deviceName", "deviceKind", "claimCode"] },
  { method: "POST", path: "/v1/pairing-codes" },
  { method: "POST", path: "/v1/pairing-codes/redeem", fields: ["code", "deviceName", "deviceKind"] },
  { method: "GET", path: "/v1/devices" },
  { method: "PUT", path: "/v1/devices/me/name", fields: ["name"] },
  { method: "DELETE", path: "/v1/devices/:deviceId" },
  { method: "POST", path: "/v1/devices/:deviceId/settings", fields: ["requestId", "sealed"] },
  { method: "GET", path: "/v1/calls/:eventId" },
  { method: "POST", path: "/v1/calls/:eventId/status", fields: ["status"] },
  { method: "POST", path: "/v1/calls/:eventId/deliveries", fields: ["outcome"] },
  { method: "POST", path: "/v1/calls/:eventId/replies", fields: ["replyId", "sealed"] },
  { method: "POST", path: "/v1/daemon/events", fields: ["eventId", "source", "occurredAt", "sealed"] },
  {
    method: "POST",
    path: "/v1/daemon/tracker-reports",
    fields: ["eventId", "source", "occurredAt", "sealed", "taskId"],
  },
  { method: "GET", path: "/v1/push/public-key" },
  { method: "GET", path: "/v1/push/subscription" },
  { method: "PUT", path: "/v1/push/subscription", fields: ["endpoint", "keys", "repeatSeconds"] },
  { method: "DELETE", path: "/v1/push/subscription" },
  { method: "GET", path: "/v1/stream" },
];
const IN_PROCESS_RUNS = 10_500;
const SOCKET_RUNS = 500;
const SOCKET_BATCH = 10;
/** The relay answers 5xx on purpose only when the computer is offline or does not answer in time. */
const RULES = (secrets: readonly string[]) => ({
  secrets,
  deliberate5xx: ["computer_offline", "computer_timeout", "relay_unavailable"] as const,
});
const seed = fuzzSeed();

const extraHeaders = fc.record(
  {
    "last-event-id": fc.oneof(
      fc.constantFrom("0", "-1", "1e9", "abc", "99999999999999999999"),
      fc.nat().map(String),
    ),
    "x-forwarded-for": fc.constantFrom("10.0.0.1", "::1", "1.2.3.4, 5.6.7.8", "garbage"),
  },
  { requiredKeys: [] },
);

describe(`the relay under hostile input (seed ${seed}, FUZZ_SEED replays)`, () => {
  it(`answers ${IN_PROCESS_RUNS} generated requests in process without a crash, a stray 5xx, a bare error or a secret`, async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("evt_fuzz"),
    });
    const secrets = [computer.deviceToken, phone.deviceToken];
    const tally = await fuzzInProcess({
      requests: hostileRequests(ROUTES, secrets, extraHeaders),
      fetch: (built) => relay.relay.app.fetch(built),
      origin: "http://relay.test",
      rules: RULES(secrets),
      runs: IN_PROCESS_RUNS,
      seed,
    });
    console.log(`relay fuzz, in process: ${tally.total} requests, 0 crashes, statuses ${tally}`);
    expect(tally.total).toBeGreaterThanOrEqual(10_000);
    expect(secretInLines(relay.logs, secrets)).toBeNull();
    expect((await relay.request("GET", "/v1/health")).status).toBe(200);
  }, 300_000);

  it(`answers ${SOCKET_RUNS} raw requests on a real socket, broken framing included, and stays up`, async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const secrets = [computer.deviceToken];
    const port = Number(new URL(relay.url).port);
    const { tally, violations } = await fuzzRawSocket({
      requests: hostileRequests(ROUTES, secrets, extraHeaders),
      port,
      rules: RULES(secrets),
      runs: SOCKET_RUNS,
      batch: SOCKET_BATCH,
      seed,
    });
    console.log(`relay fuzz, raw socket: ${tally.total} requests, 0 crashes, statuses ${tally}`);
    expect(violations).toEqual([]);
    expect(secretInLines(relay.logs, secrets)).toBeNull();
    expect((await relay.request("GET", "/v1/health")).status).toBe(200);
  }, 300_000);

  it("cuts off a client that dribbles its headers (slowloris), and keeps answering others", async () => {
    await using relay = await socketRelay(
      {},
      { slowClientLimits: { headersMs: 400, requestMs: 1_000, checkEveryMs: 100 } },
    );
    const port = Number(new URL(relay.url).port);
    using slow = dribbleHeaders(port, "GET /v1/health HTTP/1.1\r\nhost: 127.0.0.1\r\n");
    expect((await relay.request("GET", "/v1/health")).status).toBe(200);
    const closedAfterMs = await slow.closed;
    expect(closedAfterMs).toBeLessThan(5_000);
  });
});
