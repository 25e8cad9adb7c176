import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { aad, generateKey, openJson, sealJson } from "@ringback/e2e-crypto";
import type { SettingsRelayRequest } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { relayDaemonRequest } from "./daemon-request.js";
import { RelayClient } from "./relay-client.js";

const key = generateKey();

/** The relay and the computer in one stand-in: it opens the sealed request with the shared key and seals an answer. */
async function startComputer() {
  const seen: { path: string; request: unknown; relayBody: string }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", async () => {
      const relayed = JSON.parse(body) as SettingsRelayRequest;
      const computerId = /^\/v1\/devices\/([^/]+)\/settings$/.exec(request.url ?? "")?.[1] ?? "";
      const opened = await openJson(
        key,
        aad.settingsRequestTo(computerId, relayed.requestId),
        relayed.sealed,
      );
      seen.push({ path: request.url!, request: opened, relayBody: body });
      const sealed = await sealJson(key, aad.settingsResult(relayed.requestId), {
        status: 200,
        body: { issues: [] },
      });
      response
        .writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify({ requestId: relayed.requestId, sealed }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("a daemon request relayed to the computer", () => {
  let computer: Awaited<ReturnType<typeof startComputer>>;

  beforeEach(async () => {
    computer = await startComputer();
  });

  afterEach(async () => {
    await computer.close();
  });

  it("is sealed for the computer and its answer opened here; the relay sees neither", async () => {
    const client = new RelayClient({ serverUrl: computer.origin, deviceToken: "tok" });
    const issues = [{ workspaceId: "ws1", issueId: "i1" }];
    const sentAt = new Date("2026-03-02T10:00:00.000Z");
    const answer = await relayDaemonRequest(
      client,
      key,
      "dev_computer",
      { method: "POST", path: "/tracker/issues", body: { issues } },
      { now: () => sentAt },
    );
    expect(answer).toEqual({ status: 200, body: { issues: [] } });
    expect(computer.seen[0]?.path).toBe("/v1/devices/dev_computer/settings");
    // Addressed to that computer (its id in the associated data), with the time and a fresh nonce inside.
    expect(computer.seen[0]?.request).toEqual({
      method: "POST",
      path: "/tracker/issues",
      body: { issues },
      sentAt: "2026-03-02T10:00:00.000Z",
      nonce: expect.stringMatching(/^[\w-]{22}$/),
    });
    expect(computer.seen[0]?.relayBody).not.toContain("tracker");
  });
});
