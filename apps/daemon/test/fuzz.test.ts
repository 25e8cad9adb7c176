import { createServer } from "node:http";
import {
  dribbleHeaders,
  fuzzInProcess,
  fuzzRawSocket,
  fuzzSeed,
  hostileRequests,
  type RouteShape,
  secretInLines,
  sendRaw,
} from "@ringback/hostile-input";
import { type LoopbackServer, listenOnLoopback } from "@ringback/test-kit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../src/server.js";
import { type InProcessDaemon, startInProcessDaemon, TEST_PORT } from "./helpers/in-process-daemon.js";

/** Every route of the daemon's local interface, with its body's field names so validation is reached. */
const ROUTES: readonly RouteShape[] = [
  { method: "GET", path: "/llm/settings" },
  { method: "PUT", path: "/llm/settings", fields: ["baseUrl", "apiKey", "model", "structuredOutput"] },
  { method: "DELETE", path: "/llm/settings" },
  { method: "POST", path: "/llm/test", fields: ["baseUrl", "apiKey", "model", "structuredOutput"] },
  { method: "GET", path: "/brief/language" },
  { method: "PUT", path: "/brief/language", fields: ["language"] },
  { method: "GET", path: "/e2e/key" },
  // A passphrase costs a key derivation (PBKDF2, 600,000 rounds): hostile keys and flags here, passphrases are
  // tested in e2e-key.test.ts.
  { method: "PUT", path: "/e2e/key", fields: ["key", "random"] },
  {
    method: "POST",
    path: "/report",
    fields: ["source", "sessionId", "turnId", "cwd", "text", "occurredAt", "model"],
  },
  { method: "POST", path: "/local/pairing", fields: ["deviceName"] },
  {
    method: "POST",
    path: "/local/login",
    fields: ["serverUrl", "pairing", "passphrase", "claimCode", "deviceName"],
  },
  { method: "GET", path: "/local/status" },
  { method: "GET", path: "/tracker/settings" },
  { method: "PUT", path: "/tracker/settings", fields: ["token", "workspaceIds"] },
  { method: "DELETE", path: "/tracker/settings" },
  { method: "POST", path: "/tracker/workspaces", fields: ["token"] },
  { method: "POST", path: "/tracker/issues", fields: ["issues"] },
  { method: "GET", path: "/tracker/dispatch/options" },
  { method: "POST", path: "/tracker/dispatch/options", fields: ["workspaceId"] },
  { method: "POST", path: "/tracker/dispatch/issues", fields: ["workspaceId", "projectId", "query"] },
  { method: "POST", path: "/tracker/dispatch/statuses", fields: ["workspaceId"] },
  { method: "GET", path: "/tracker/dispatches" },
  {
    method: "POST",
    path: "/tracker/dispatches",
    fields: ["dispatchId", "workspaceId", "agentId", "prompt", "images"],
  },
  { method: "POST", path: "/tracker/dispatches/cancel", fields: ["dispatchId"] },
  { method: "POST", path: "/tracker/dispatches/lookup", fields: ["dispatchIds"] },
  { method: "POST", path: "/tracker/uploads", fields: ["workspaceId", "name", "contentType", "data"] },
];
const IN_PROCESS_RUNS = 10_500;
const SOCKET_RUNS = 300;
const MODEL_KEY = "sk-fuzz-model-key-0123456789abcdef";
const TRACKER_TOKEN = "mul_fuzz_tracker_token_0123456789";
const seed = fuzzSeed();

let daemon: InProcessDaemon;
let tracker: LoopbackServer;
const blockedFetches: string[] = [];
const realFetch = globalThis.fetch;

/** Host and Origin as a local process or a web page would send them: the guards must refuse the wrong ones. */
const guardHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ host: `127.0.0.1:${TEST_PORT}` }) },
  fc
    .constantFrom(`localhost:${TEST_PORT}`, "evil.example", `127.0.0.1:${TEST_PORT + 1}`, "", "[::1]")
    .map((host) => ({
      host,
    })),
  fc.constantFrom("https://evil.example", "null", "http://127.0.0.1").map((origin) => ({
    host: `127.0.0.1:${TEST_PORT}`,
    origin,
  })),
);

/** The daemon's guards answer with the spec's codes; only the model or tracker being away is a deliberate 5xx. */
const RULES = (secrets: readonly string[]) => ({
  secrets,
  deliberate5xx: ["tracker_unavailable", "computer_offline", "computer_timeout"] as const,
});

beforeAll(async () => {
  // Whatever a body asks the daemon to reach, nothing leaves this machine: other hosts fail as if unreachable.
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
      blockedFetches.push(url.host);
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error("blocked"), { code: "ECONNREFUSED" }),
      });
    }
    return realFetch(input, init);
  }) as typeof fetch;
  // A tracker that refuses every token at once (a 401 is never retried), so tracker routes answer without waits.
  tracker = await listenOnLoopback(
    createServer((_request, response) => {
      response.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
    }),
  );
  daemon = await startInProcessDaemon({
    config: {
      llm: { primary: { baseUrl: "http://127.0.0.1:9/v1", apiKey: MODEL_KEY, model: "m" } },
      tracker: { token: TRACKER_TOKEN, workspaces: [] },
    },
    env: { DAEMON_TRACKER_API_URL: tracker.origin },
  });
});

afterAll(async () => {
  await daemon?.close();
  await tracker?.close();
  globalThis.fetch = realFetch;
});

describe(`the daemon's local interface under hostile input (seed ${seed}, FUZZ_SEED replays)`, () => {
  it(`answers ${IN_PROCESS_RUNS} generated requests without a stray 5xx, a bare error or a secret`, async () => {
    const secrets = [daemon.localKey, MODEL_KEY, TRACKER_TOKEN];
    const tally = await fuzzInProcess({
      requests: hostileRequests(ROUTES, [daemon.localKey], guardHeaders),
      fetch: (built) => daemon.app.fetch(built),
      origin: `http://127.0.0.1:${TEST_PORT}`,
      rules: RULES(secrets),
      runs: IN_PROCESS_RUNS,
      seed,
    });
    console.log(
      `daemon fuzz, in process: ${tally.total} requests, 0 crashes, statuses ${tally}; ${blockedFetches.length} calls to other hosts kept on this machine`,
    );
    expect(tally.total).toBeGreaterThanOrEqual(10_000);
    expect(secretInLines(daemon.logLines, secrets)).toBeNull();
    expect((await daemon.request("/brief/language")).status).toBe(200);
  }, 300_000);

  it(`answers ${SOCKET_RUNS} raw requests on a real socket, broken framing and slow headers included`, async () => {
    const server = await listen(daemon.app, 0, { headersMs: 400, requestMs: 1_000, checkEveryMs: 100 });
    try {
      const secrets = [daemon.localKey, MODEL_KEY, TRACKER_TOKEN];
      const { tally, violations } = await fuzzRawSocket({
        requests: hostileRequests(ROUTES, [daemon.localKey], guardHeaders),
        port: server.port,
        rules: RULES(secrets),
        runs: SOCKET_RUNS,
        batch: 10,
        seed,
      });
      console.log(`daemon fuzz, raw socket: ${tally.total} requests, 0 crashes, statuses ${tally}`);
      expect(violations).toEqual([]);

      // Slowloris: headers a line at a time are cut off; a normal request still gets its answer meanwhile.
      using slow = dribbleHeaders(
        server.port,
        `GET /brief/language HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\n`,
      );
      const normal = await sendRaw(
        server.port,
        Buffer.from(
          `GET /brief/language HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nconnection: close\r\n\r\n`,
        ),
        2_000,
      );
      expect(normal.status).toBe(403);
      await slow.closed;
    } finally {
      await server.close();
    }
  }, 300_000);
});
