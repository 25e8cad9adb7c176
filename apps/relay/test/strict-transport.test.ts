import { readFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { STRICT_TRANSPORT_SECURITY } from "../src/http/strict-transport.js";
import { startRelayServer } from "../src/server.js";
import { deviceSteps, relayGround } from "./support/in-process-relay.js";
import { socketRelay } from "./support/socket-relay.js";
import { makeThrowawayCertificates } from "./support/throwaway-certificates.js";

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One request over a real socket (HTTPS trusting `ca` when given); an SSE stream is cut once its headers are in.
 */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; ca?: string } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = { ...options.headers, ...(body ? { "content-type": "application/json" } : {}) };
  const request = url.startsWith("https:") ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: options.method ?? "GET", headers, ...(options.ca ? { ca: options.ca } : {}) },
      (response) => {
        const answer = { status: response.statusCode ?? 0, headers: response.headers };
        if (String(response.headers["content-type"]).startsWith("text/event-stream")) {
          resolve({ ...answer, body: "" });
          response.destroy();
          return;
        }
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => resolve({ ...answer, body: text }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const HSTS = "strict-transport-security";

describe("Strict-Transport-Security", () => {
  it("is on every answer of a relay serving TLS itself (LAN mode): API, stream, errors", async () => {
    await using dir = await makeTemporaryDirectory();
    const certificates = makeThrowawayCertificates(dir.path, ["127.0.0.1"]);
    await using ground = await relayGround();
    const server = await startRelayServer({
      host: "127.0.0.1",
      port: 0,
      store: ground.store,
      clock: ground.clock,
      log: ground.log,
      config: { openSignup: true },
      tls: {
        cert: readFileSync(certificates.certPath, "utf8"),
        key: readFileSync(certificates.keyPath, "utf8"),
        certPath: certificates.certPath,
      },
    });
    try {
      const at = (path: string) => new URL(path, server.url).toString();
      const ca = certificates.caCert;
      const { signUp } = deviceSteps(async (method, path, options = {}) => {
        const answer = await send(at(path), { method, body: options.body, ca });
        return { status: answer.status, headers: new Headers(), body: JSON.parse(answer.body) };
      });
      const computer = await signUp("computer");
      const answers = [
        await send(at("/v1/health"), { ca }),
        await send(at("/v1/stream"), { ca, headers: { authorization: `Bearer ${computer.deviceToken}` } }),
        await send(at("/v1/devices"), { ca }),
        await send(at("/v1/nothing-here"), { ca }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, 404]);
      for (const answer of answers) expect(answer.headers[HSTS]).toBe(STRICT_TRANSPORT_SECURITY);
      expect(STRICT_TRANSPORT_SECURITY).toBe("max-age=31536000");
    } finally {
      await server.close();
    }
  });

  it("is on answers a trusted proxy says went over HTTPS (X-Forwarded-Proto: https), and on nothing else", async () => {
    await using relay = await socketRelay({ behindProxy: true });
    const at = (path: string) => new URL(path, relay.url).toString();
    const viaProxy = (proto: string) => ({ "x-forwarded-for": "203.0.113.7", "x-forwarded-proto": proto });
    expect((await send(at("/v1/health"), { headers: viaProxy("https") })).headers[HSTS]).toBe(
      STRICT_TRANSPORT_SECURITY,
    );
    // A chain of proxies: the last entry is the one the proxy next to the relay set.
    expect((await send(at("/v1/health"), { headers: viaProxy("http, https") })).headers[HSTS]).toBe(
      STRICT_TRANSPORT_SECURITY,
    );
    expect((await send(at("/v1/nothing-here"), { headers: viaProxy("https") })).headers[HSTS]).toBe(
      STRICT_TRANSPORT_SECURITY,
    );
    expect((await send(at("/v1/health"), { headers: viaProxy("http") })).headers[HSTS]).toBeUndefined();
    expect(
      (await send(at("/v1/health"), { headers: viaProxy("https, http") })).headers[HSTS],
    ).toBeUndefined();
    expect((await send(at("/v1/health"))).headers[HSTS]).toBeUndefined();
  });

  it("is never on plain HTTP, whatever an untrusted client claims in X-Forwarded-Proto", async () => {
    await using relay = await socketRelay();
    const at = (path: string) => new URL(path, relay.url).toString();
    expect((await send(at("/v1/health"))).headers[HSTS]).toBeUndefined();
    const claimed = await send(at("/v1/health"), { headers: { "x-forwarded-proto": "https" } });
    expect(claimed.status).toBe(200);
    expect(claimed.headers[HSTS]).toBeUndefined();
  });
});
