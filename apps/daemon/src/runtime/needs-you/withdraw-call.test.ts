import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { withdrawPermissionCall } from "./withdraw-call.js";

interface StatusWrite {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

/** A relay on 127.0.0.1 that answers every status write with `answer` and records it. */
async function relayAnswering(answer: (response: ServerResponse) => void) {
  const writes: StatusWrite[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = "";
    request.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    request.on("end", () => {
      writes.push({
        path: request.url ?? "",
        authorization: request.headers.authorization,
        body: JSON.parse(text),
      });
      answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return { serverUrl: `http://127.0.0.1:${port}`, writes };
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function json(status: number, body: unknown) {
  return (response: ServerResponse) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
}

describe("withdrawing a needs-you call", () => {
  it("ends the call at the relay as this computer", async () => {
    const relay = await relayAnswering(json(200, { eventId: "needs_a", status: "ended", won: true }));
    expect(
      await withdrawPermissionCall({ serverUrl: relay.serverUrl, deviceToken: "pc-token" }, "needs_a"),
    ).toEqual({
      kind: "withdrawn",
    });
    expect(relay.writes).toEqual([
      { path: "/v1/calls/needs_a/status", authorization: "Bearer pc-token", body: { status: "ended" } },
    ]);
  });

  it.each([
    [
      "decided first (the relay's call already ended another way)",
      json(200, { status: "answered", won: false }),
    ],
    ["gone (expired and erased)", json(404, { error: { code: "call_not_found", message: "x" } })],
    ["already over", json(409, { error: { code: "call_already_answered", message: "x" } })],
  ])("leaves a call that was %s as it is", async (_, answer) => {
    const relay = await relayAnswering(answer);
    expect(await withdrawPermissionCall({ serverUrl: relay.serverUrl, deviceToken: "t" }, "needs_a")).toEqual(
      {
        kind: "already-over",
      },
    );
  });

  it("says a relay that fails or does not answer in time failed, without throwing", async () => {
    const failing = await relayAnswering(json(503, {}));
    expect(
      await withdrawPermissionCall({ serverUrl: failing.serverUrl, deviceToken: "t" }, "needs_a"),
    ).toEqual({
      kind: "failed",
      reason: "the relay answered 503",
    });
    const silent = await relayAnswering(() => undefined);
    expect(
      await withdrawPermissionCall({ serverUrl: silent.serverUrl, deviceToken: "t" }, "needs_a", 200),
    ).toEqual({
      kind: "failed",
      reason: "TimeoutError",
    });
  });
});
