import { DaemonEventPost, DaemonTrackerReportPost } from "@ringback/protocol";
import { type RelayAnswer, startScriptedRelay } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { makeBrief, makeEntry, makeReport } from "./__fixtures__/outbox-fixtures.js";
import type { OutboxEntry } from "./entry.js";
import { createRelaySender } from "./relay-sender.js";

/** A relay stand-in that records every post and gives each the same answer. */
const startRelay = (answer: RelayAnswer) => startScriptedRelay(() => answer);

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
    await using relay = await startRelay({ status: 202, body: { ok: true } });
    const send = createRelaySender({ serverUrl: `${relay.url}/`, deviceToken: "device-token-1", seal });
    expect(await send(generated(makeEntry(1)), signal)).toEqual({ kind: "sent" });

    const [request] = relay.posts;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/daemon/events");
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
    await using relay = await startRelay({ status: 200 });
    const tracker = { workspaceId: "ws1", taskId: "task-9", issueId: "issue-3" };
    const entry = makeEntry(2, { report: makeReport(2, { source: "tracker", tracker }) });
    const send = createRelaySender({ serverUrl: `${relay.url}/relay`, seal });
    expect(await send(generated(entry), signal)).toEqual({ kind: "sent" });
    expect(relay.posts[0]?.path).toBe("/relay/v1/daemon/tracker-reports");
    expect(relay.posts[0]?.headers.authorization).toBeUndefined();
    expect(DaemonTrackerReportPost.parse(relay.posts[0]?.body).taskId).toBe("task-9");
  });

  it("posts ring quiet for a call ringOf calls quiet, and no ring field for one that rings", async () => {
    await using relay = await startRelay({ status: 202 });
    const ringOf = (entry: Readonly<OutboxEntry>) => (entry.report.eventId === "evt_0001" ? "quiet" : "ring");
    const send = createRelaySender({ serverUrl: relay.url, seal, ringOf });
    await send(generated(makeEntry(1)), signal);
    await send(generated(makeEntry(2)), signal);
    expect(relay.posts.map((post) => post.body.ring)).toEqual(["quiet", undefined]);
    expect(DaemonEventPost.parse(relay.posts[0]?.body).ring).toBe("quiet");
  });

  it("posts the task id as taskIdForRelay makes it, when given", async () => {
    await using relay = await startRelay({ status: 200 });
    const tracker = { workspaceId: "ws1", taskId: "task-9", issueId: "issue-3" };
    const entry = makeEntry(3, { report: makeReport(3, { source: "tracker", tracker }) });
    const taskIdForRelay = async (taskId: string) => `digest-of-${taskId}`;
    expect(
      await createRelaySender({ serverUrl: relay.url, seal, taskIdForRelay })(generated(entry), signal),
    ).toEqual({
      kind: "sent",
    });
    expect(DaemonTrackerReportPost.parse(relay.posts[0]?.body).taskId).toBe("digest-of-task-9");
  });

  it("treats 409 duplicate_task as done and any other 409 as a drop", async () => {
    await using duplicate = await startRelay({
      status: 409,
      body: { error: { code: "duplicate_task", message: "x" } },
    });
    expect(await createRelaySender({ serverUrl: duplicate.url, seal })(makeEntry(1), signal)).toEqual({
      kind: "duplicate",
    });
    await using conflict = await startRelay({
      status: 409,
      body: { error: { code: "call_already_answered", message: "x" } },
    });
    expect(await createRelaySender({ serverUrl: conflict.url, seal })(makeEntry(1), signal)).toEqual({
      kind: "drop",
      reason: "relay answered 409 call_already_answered: x",
    });
  });

  it.each([400, 401, 404, 413, 422])("drops on %i with the relay's code in the reason", async (status) => {
    await using relay = await startRelay({
      status,
      body: { error: { code: "invalid_request", message: "bad" } },
    });
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(makeEntry(1), signal);
    expect(outcome).toEqual({ kind: "drop", reason: `relay answered ${status} invalid_request: bad` });
  });

  it.each([500, 502, 503])("retries on %i", async (status) => {
    await using relay = await startRelay({ status });
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(makeEntry(1), signal);
    expect(outcome).toEqual({ kind: "retry", reason: `relay answered ${status}` });
  });

  it("retries on 429 and passes on the Retry-After", async () => {
    await using relay = await startRelay({
      status: 429,
      body: { error: { code: "rate_limited", message: "slow" } },
      headers: { "retry-after": "7" },
    });
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(makeEntry(1), signal);
    expect(outcome).toEqual({ kind: "retry", reason: "relay answered 429 rate_limited", retryAfterMs: 7000 });
  });

  it("retries when the relay drops the connection", async () => {
    await using relay = await startRelay({ dropConnection: true });
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(makeEntry(1), signal);
    expect(outcome.kind).toBe("retry");
    expect(outcome.kind === "retry" && outcome.reason).toMatch(/^network error/);
  });

  it("retries when nothing listens on the relay address", async () => {
    const relay = await startRelay({ status: 200 });
    await relay.close();
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(makeEntry(1), signal);
    expect(outcome.kind).toBe("retry");
  });

  it("retries when the relay does not answer in time", async () => {
    await using relay = await startRelay({ hold: true });
    const outcome = await createRelaySender({ serverUrl: relay.url, seal, timeoutMs: 100 })(
      makeEntry(1),
      signal,
    );
    expect(outcome.kind).toBe("retry");
  });

  it("drops a tracker report that has no task id instead of posting it", async () => {
    await using relay = await startRelay({ status: 200 });
    const entry = makeEntry(3, { report: makeReport(3, { source: "tracker" }) });
    const outcome = await createRelaySender({ serverUrl: relay.url, seal })(entry, signal);
    expect(outcome.kind).toBe("drop");
    expect(relay.posts).toHaveLength(0);
  });
});
