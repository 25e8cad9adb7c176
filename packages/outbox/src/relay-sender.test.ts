import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DaemonEventPost, DaemonTrackerReportPost } from "@ringback/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { makeBrief, makeEntry, makeReport } from "./__fixtures__/outbox-fixtures.js";
import type { OutboxEntry } from "./entry.js";
import { createRelaySender } from "./relay-sender.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

const servers: Server[] = [];

/** A relay stand-in on 127.0.0.1: records every request and answers with `answer`. */
async function startRelay(answer: Answer): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      text += chunk;
    });
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: JSON.parse(text),
      });
      answer(request, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

function answerWith(status: number, body: unknown = {}, headers: Record<string, string> = {}): Answer {
  return (_request, response) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const generated = (entry: OutboxEntry): OutboxEntry => ({
  ...entry,
  state: "generated",
  brief: makeBrief(entry.report),
});
const seal = async (entry: Readonly<OutboxEntry>) =>
  `e2e1.0011223344556677.iv.sealed-${entry.report.eventId}`;
const signal = new AbortController().signal;

describe("createRelaySender", () => {
  it("posts a DaemonEventPost to /v1/daemon/events with the device token", async () => {
    const relay = await startRelay(answerWith(202, { ok: true }));
    const send = createRelaySender({ serverUrl: `${relay.url}/`, deviceToken: "device-token-1", seal });
    expect(await send(generated(makeEntry(1)), signal)).toEqual({ kind: "sent" });

    const [request] = relay.received;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/v1/daemon/events");
    expect(request?.headers.authorization).toBe("Bearer device-token-1");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(DaemonEventPost.parse(request?.body)).toEqual({
      eventId: "evt_0001",
      source: "claude-code",
      occurredAt: makeReport(1).occurredAt,
      sealed: "e2e1.0011223344556677.iv.sealed-evt_0001",
    });
  });

  it("posts tracker reports to /v1/daemon/tracker-reports with the task id in plaintext, under a path prefix", async () => {
    const relay = await startRelay(answerWith(200));
    const tracker = { workspaceId: "ws1", taskId: "task-9", issueId: "issue-3" };
    const entry = makeEntry(2, { report: makeReport(2, { source: "tracker", tracker }) });
    const send = createRelaySender({ serverUrl: `${relay.url}/relay`, seal });
    expect(await send(generated(entry), signal)).toEqual({ kind: "sent" });
    expect(relay.received[0]?.url).toBe("/relay/v1/daemon/tracker-reports");
    expect(relay.received[0]?.headers.authorization).toBeUndefined();
    expect(DaemonTrackerReportPost.parse(relay.received[0]?.body).taskId).toBe("task-9");
  });

  it("treats 409 duplicate_task as done and any other 409 as a drop", async () => {
    const duplicate = await startRelay(answerWith(409, { error: { code: "duplicate_task", message: "x" } }));
    expect(await createRelaySender({ serverUrl: duplicate.url, seal })(makeEntry(1), signal)).toEqual({
      kind: "duplicate",
    });
    const conflict = await startRelay(
      answerWith(409, { error: { code: "call_already_answered", message: "x" } }),
    );
    expect(await createRelaySender({ serverUrl: conflict.url, seal })(makeEntry(1), signal)).toEqual({
      kind: "drop",
      reason: "relay answered 409 call_already_answered: x",
    });
  });

  it.each([400, 401, 404, 413, 422])("drops on %i with the relay's code in the reason", async (status) => {
    const relay = await startRelay(
      answerWith(status, { error: { code: "invalid_request", message: "bad" } }),
    );
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(makeEntry(1), signal);
    expect(outcome).toEqual({ kind: "drop", reason: `relay answered ${status} invalid_request: bad` });
  });

  it.each([500, 502, 503])("retries on %i", async (status) => {
    const relay = await startRelay(answerWith(status));
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(makeEntry(1), signal);
    expect(outcome).toEqual({ kind: "retry", reason: `relay answered ${status}` });
  });

  it("retries on 429 and passes on the Retry-After", async () => {
    const relay = await startRelay(
      answerWith(429, { error: { code: "rate_limited", message: "slow" } }, { "retry-after": "7" }),
    );
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(makeEntry(1), signal);
    expect(outcome).toEqual({ kind: "retry", reason: "relay answered 429 rate_limited", retryAfterMs: 7000 });
  });

  it("retries when the relay drops the connection", async () => {
    const relay = await startRelay((request) => request.socket.destroy());
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(makeEntry(1), signal);
    expect(outcome.kind).toBe("retry");
    expect(outcome.kind === "retry" && outcome.reason).toMatch(/^network error/);
  });

  it("retries when nothing listens on the relay address", async () => {
    const relay = await startRelay(answerWith(200));
    const closed = servers.pop() as Server;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(makeEntry(1), signal);
    expect(outcome.kind).toBe("retry");
  });

  it("retries when the relay does not answer in time", async () => {
    const relay = await startRelay(() => undefined);
    const outcome = await createRelaySender({ serverUrl: relay.url, seal, timeoutMs: 100 })(
      makeEntry(1),
      signal,
    );
    expect(outcome.kind).toBe("retry");
  });

  it("drops a tracker report that has no task id instead of posting it", async () => {
    const relay = await startRelay(answerWith(200));
    const entry = makeEntry(3, { report: makeReport(3, { source: "tracker" }) });
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(entry, signal);
    expect(outcome.kind).toBe("drop");
    expect(relay.received).toHaveLength(0);
  });
});
