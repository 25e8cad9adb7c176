import { connect } from "node:net";
import {
  answerViolation,
  fuzzSeed,
  type HostileRequest,
  hostileRequests,
  type RouteShape,
  StatusTally,
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

/** The request as the relay's app receives it in process; an event stream's answer is read up to its status. */
async function sendInProcess(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  request: HostileRequest,
): Promise<{ status: number; body: string } | null> {
  let built: Request;
  try {
    built = new Request(`http://relay.test${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
  } catch {
    // A header value or method no HTTP client can send (the raw-socket test sends those).
    return null;
  }
  const response = await app.fetch(built);
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, body: "" };
  }
  return { status: response.status, body: await response.text() };
}

/** One raw HTTP/1.1 exchange on a socket; resolves with the status line's code (0 when the server just closed). */
function sendRaw(port: number, bytes: Uint8Array, waitMs = 2_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    const finish = () => {
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, body: received.slice(received.indexOf("\r\n\r\n") + 4) });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (chunk) => {
      received += chunk.toString("utf8");
      // One answer is enough (an event stream never ends).
      if (
        /\r\n\r\n/.test(received) &&
        !/text\/event-stream/.test(received) &&
        /content-length: (\d+)/i.test(received)
      ) {
        const length = Number(/content-length: (\d+)/i.exec(received)?.[1]);
        if (Buffer.byteLength(received.slice(received.indexOf("\r\n\r\n") + 4)) >= length) {
          clearTimeout(timer);
          finish();
        }
      }
    });
    socket.on("close", () => {
      clearTimeout(timer);
      finish();
    });
    socket.on("error", () => undefined);
    socket.write(bytes);
  });
}

/** The request on the wire, sometimes with its framing broken: a Content-Length too small or too large, or cut. */
function wireBytes(request: HostileRequest, framing: number): Uint8Array {
  const body =
    request.body === undefined
      ? new Uint8Array()
      : typeof request.body === "string"
        ? Buffer.from(request.body)
        : request.body;
  const length =
    framing === 1 ? Math.max(0, body.length - 3) : framing === 2 ? body.length + 10 : body.length;
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${value.replace(/[\r\n]/g, "")}`)
    .join("\r\n");
  const head = `${request.method} ${request.path.replace(/[ \r\n]/g, "%20") || "/"} HTTP/1.1\r\nhost: 127.0.0.1\r\n${headers}${headers ? "\r\n" : ""}content-length: ${length}\r\nconnection: close\r\n\r\n`;
  const bytes = Buffer.concat([Buffer.from(head, "latin1"), body]);
  return framing === 3 ? bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))) : bytes;
}

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
        const answer = await sendInProcess(relay.relay.app, request);
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
