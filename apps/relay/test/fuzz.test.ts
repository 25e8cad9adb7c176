import { connect } from "node:net";
import {
  answerViolation,
  fuzzSeed,
  hostileRequests,
  type RouteShape,
  StatusTally,
  secretInLines,
  sendInProcess,
  sendRaw,
  wireBytes,
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
    const tally = new StatusTally();
    await fc.assert(
      fc.asyncProperty(hostileRequests(ROUTES, secrets, extraHeaders), async (request) => {
        const answer = await sendInProcess(
          (built) => relay.relay.app.fetch(built),
          "http://relay.test",
          request,
        );
        if (answer === null) return true;
        tally.add(answer.status);
        const violation = answerViolation({ ...answer, method: request.method }, RULES(secrets));
        if (violation) throw new Error(`${request.method} ${request.path.slice(0, 80)}: ${violation}`);
      }),
      { numRuns: IN_PROCESS_RUNS, seed, endOnFailure: true },
    );
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
    const tally = new StatusTally();
    const violations: string[] = [];
    const batch = fc.array(fc.tuple(hostileRequests(ROUTES, secrets, extraHeaders), fc.nat(5)), {
      minLength: SOCKET_BATCH,
      maxLength: SOCKET_BATCH,
    });
    await fc.assert(
      fc.asyncProperty(batch, async (requests) => {
        // Ten at once, as clients come: a request whose framing is cut or too long waits out its time.
        const answers = await Promise.all(
          requests.map(([request, framing]) => sendRaw(port, wireBytes(request, framing), 300)),
        );
        for (const [index, answer] of answers.entries()) {
          const request = requests[index]?.[0];
          tally.add(answer.status);
          // A cut or over-long request may get no answer at all (the server waits, then closes): never a crash.
          if (answer.status === 0 || !request) continue;
          const violation = answerViolation({ ...answer, method: request.method }, RULES(secrets));
          // A broken frame is the HTTP parser's 400, before the app: no envelope to expect there.
          if (violation && answer.status !== 400)
            violations.push(`${request.method} ${request.path.slice(0, 60)}: ${violation}`);
        }
        return true;
      }),
      { numRuns: SOCKET_RUNS / SOCKET_BATCH, seed },
    );
    console.log(`relay fuzz, raw socket: ${tally.total} requests, 0 crashes, statuses ${tally}`);
    expect(violations).toEqual([]);
    expect(secretInLines(relay.logs, secrets)).toBeNull();
    expect((await relay.request("GET", "/v1/health")).status).toBe(200);
  }, 300_000);

  it("cuts off a client that dribbles its headers (slowloris), and keeps answering others", async () => {
    await using relay = await socketRelay({}, { headersMs: 400, requestMs: 1_000, checkEveryMs: 100 });
    const port = Number(new URL(relay.url).port);
    const socket = connect(port, "127.0.0.1");
    const closed = new Promise<number>((resolve) => {
      const started = Date.now();
      socket.on("close", () => resolve(Date.now() - started));
      socket.on("error", () => undefined);
    });
    socket.write("GET /v1/health HTTP/1.1\r\nhost: 127.0.0.1\r\n");
    const dribble = setInterval(() => socket.write("x-slow: 1\r\n"), 100);
    try {
      expect((await relay.request("GET", "/v1/health")).status).toBe(200);
      const closedAfterMs = await closed;
      expect(closedAfterMs).toBeLessThan(5_000);
    } finally {
      clearInterval(dribble);
      socket.destroy();
    }
  });
});
