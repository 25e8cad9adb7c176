import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RelayClient } from "./relay-client.js";
import type { RelayError } from "./relay-error.js";

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** A relay stand-in on 127.0.0.1: records each request and answers what the test set. */
async function startRelay() {
  const requests: { method: string; url: string; authorization?: string; body: string }[] = [];
  let answer: Answer = { status: 200, body: {} };
  const server = createServer((request: IncomingMessage, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      requests.push({
        method: request.method!,
        url: request.url!,
        authorization: request.headers.authorization,
        body,
      });
      response
        .writeHead(answer.status, { "Content-Type": "application/json" })
        .end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer(next: Answer) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("relay client", () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;

  beforeEach(async () => {
    relay = await startRelay();
  });

  afterEach(async () => {
    await relay.close();
  });

  it("writes a call status with the device token and reads the relay's answer", async () => {
    relay.answer({ status: 200, body: { eventId: "e1", status: "answered", won: true } });
    const client = new RelayClient({ serverUrl: `${relay.origin}/`, deviceToken: "tok" });
    expect(await client.writeCallStatus("e1", "answered")).toEqual({
      eventId: "e1",
      status: "answered",
      won: true,
    });
    expect(relay.requests).toEqual([
      {
        method: "POST",
        url: "/v1/calls/e1/status",
        authorization: "Bearer tok",
        body: '{"status":"answered"}',
      },
    ]);
  });

  it("reads every computer's fleet state, as the stream relays each", async () => {
    const computers = [
      {
        computerId: "laptop",
        sealed: "e2e1.0011223344556677.aaaa.bbbb",
        receivedAt: "2026-03-02T10:00:00.000Z",
      },
    ];
    relay.answer({ status: 200, body: { computers } });
    const client = new RelayClient({ serverUrl: relay.origin, deviceToken: "tok" });
    expect(await client.fleet()).toEqual({ computers });
    expect(relay.requests).toMatchObject([{ method: "GET", url: "/v1/fleet", authorization: "Bearer tok" }]);
    relay.answer({ status: 200, body: { computers: [{ computerId: "laptop" }] } });
    await expect(client.fleet()).rejects.toBeDefined();
  });

  it("sends no Authorization header before the device has joined", async () => {
    relay.answer({ status: 200, body: { claimRequired: true, openSignup: false } });
    expect(await new RelayClient({ serverUrl: relay.origin }).setup()).toEqual({
      claimRequired: true,
      openSignup: false,
    });
    expect(relay.requests[0]?.authorization).toBeUndefined();
  });

  it("turns the relay's error body into a RelayError with its code; 401 means the device was removed", async () => {
    relay.answer({ status: 401, body: { error: { code: "device_removed", message: "removed" } } });
    const error = (await new RelayClient({ serverUrl: relay.origin, deviceToken: "tok" })
      .listDevices()
      .catch((caught: unknown) => caught)) as RelayError;
    expect(error).toMatchObject({
      status: 401,
      code: "device_removed",
      isDeviceRemoved: true,
      isRetryable: false,
    });
    expect(error.message).not.toContain("tok");
  });

  it("refuses an answer of the wrong shape", async () => {
    relay.answer({ status: 200, body: { devices: "none" } });
    await expect(
      new RelayClient({ serverUrl: relay.origin, deviceToken: "tok" }).listDevices(),
    ).rejects.toMatchObject({
      status: 200,
      code: null,
    });
  });

  it("says when the relay cannot be reached, as a retryable error", async () => {
    await relay.close();
    await expect(new RelayClient({ serverUrl: relay.origin }).setup()).rejects.toMatchObject({
      status: null,
      isRetryable: true,
    });
  });
});
