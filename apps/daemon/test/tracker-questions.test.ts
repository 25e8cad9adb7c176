import { randomBytes } from "node:crypto";
import { sealReply } from "@ringback/client";
import { aad, type E2eKey, openJson, parseKey, taskIdDigest } from "@ringback/e2e-crypto";
import { SealedReportPayload } from "@ringback/protocol";
import {
  eventually,
  makeTemporaryDirectory,
  type RelayScript,
  type ScriptedRelay,
  startScriptedRelay,
} from "@ringback/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { trackerEventId } from "../src/runtime/tracker/tracker-event-id.js";
import { duplicateRule } from "./helpers/duplicate-rule.js";
import { type HostileRelay, startHostileRelay } from "./helpers/hostile-relay.js";
import { failureReason } from "./helpers/permission-asks.js";
import { wholeSeconds } from "./helpers/tracker-daemon.js";
import { addIssueAtWork } from "./helpers/tracker-seed.js";
import { startTrackerHarness, type TrackerHarness } from "./tracker-harness.js";

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harness(options: Parameters<typeof startTrackerHarness>[0] = {}): Promise<TrackerHarness> {
  const started = await startTrackerHarness(options);
  cleanups.push(() => started.close());
  return started;
}

async function scriptedRelay(script: RelayScript): Promise<ScriptedRelay> {
  const relay = await startScriptedRelay(script);
  cleanups.push(() => relay.close());
  return relay;
}

/** Two computers of one account watching one workspace, posting to `relay`. */
async function twoComputers(relay: ScriptedRelay) {
  const env = { RINGBACK_SERVER_URL: relay.url };
  const first = await harness({ env });
  const second = await harness({ env, sharedWith: first });
  const { key } = await first.call("/e2e/key");
  await second.call("/e2e/key", { method: "PUT", body: { key } });
  await first.configure();
  await second.configure();
  await eventually(() => first.fake.realtime.connections === 2);
  return { first, second, key: parseKey(key) };
}

/** An issue the agent "Claude" works, with its running task. */
function issueAtWork(daemon: TrackerHarness, title = "Move the login page") {
  return addIssueAtWork(daemon.state, daemon, title);
}

function mentionOf(daemon: TrackerHarness): string {
  return `[@${daemon.user.name}](mention://member/${daemon.user.id})`;
}

async function openCall(key: E2eKey, post: { body: { eventId: string; sealed: string } }) {
  return SealedReportPayload.parse(await openJson(key, aad.report(post.body.eventId), post.body.sealed));
}

/** The user's own comment, posted through the tracker's API as the web app would. */
async function commentAsTheUser(daemon: TrackerHarness, issueId: string, content: string): Promise<void> {
  const response = await fetch(`${daemon.fake.url}/api/issues/${issueId}/comments`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${daemon.user.token}`,
      "x-workspace-id": daemon.workspace.id,
      "content-type": "application/json",
    },
    body: JSON.stringify({ content }),
  });
  expect(response.status).toBe(201);
}

const isSettled = (daemon: TrackerHarness, finished: number) =>
  daemon.outbox.entries().length === 0 && daemon.outbox.finishedEntries().length === finished;

describe("an agent's question on a watched issue, two computers of one account", () => {
  it("a comment mentioning the user rings once as a question: one new post, one 409; the call reads the question whole, made without a model", async () => {
    const relay = await scriptedRelay(duplicateRule());
    const { first, second, key } = await twoComputers(relay);
    const { task } = issueAtWork(first);
    const question = `${mentionOf(first)} should the old login page redirect to the new one, or be removed?`;

    const comment = first.state.postAgentComment(task.id, question);
    await eventually(() => isSettled(first, 1) && isSettled(second, 1), { on: relay.changes });

    expect(relay.posts.map(({ path }) => path)).toEqual([
      "/v1/daemon/tracker-reports",
      "/v1/daemon/tracker-reports",
    ]);
    expect(relay.posts.map(({ answeredWith }) => answeredWith).sort()).toEqual([202, 409]);
    expect(new Set(relay.posts.map(({ body }) => body.eventId)).size).toBe(1);
    const digest = await taskIdDigest(key, `question:mention:${comment.id}`);
    expect(relay.posts.map(({ body }) => body.taskId)).toEqual([digest, digest]);
    expect(JSON.stringify(relay.posts)).not.toContain(comment.id);

    const call = await openCall(key, relay.posts[0] as ScriptedRelay["posts"][number]);
    expect(call.trackerQuestion).toEqual({ trigger: "mention", question, commentId: comment.id });
    expect(call.needsYou).toBeUndefined();
    expect(call.report.source).toBe("tracker");
    expect(call.report.tracker).toMatchObject({ issueTitle: "Move the login page", agentName: "Claude" });
    expect(call.brief.title).toMatch(/^Claude needs you on RING-\d+$/);
    expect(call.brief.spoken).toContain(
      "It wrote: @Ada should the old login page redirect to the new one, or be removed?",
    );
    expect(call.brief.meta).toMatchObject({ status: "generated", llmCalls: 0, model: null });
  });

  it("the agent moving the issue to blocked rings once, reading its last comment", async () => {
    const relay = await scriptedRelay(duplicateRule());
    const { first, second, key } = await twoComputers(relay);
    const { issue, task } = issueAtWork(first, "Deploy to staging");
    const lastWords = first.state.postAgentComment(task.id, "I need the staging password to go on.");

    first.state.changeIssueStatus(issue.id, "blocked", { type: "agent", id: first.agent.id });
    await eventually(() => isSettled(first, 1) && isSettled(second, 1), { on: relay.changes });

    expect(relay.posts.map(({ answeredWith }) => answeredWith).sort()).toEqual([202, 409]);
    expect(new Set(relay.posts.map(({ body }) => body.taskId)).size).toBe(1);
    const call = await openCall(key, relay.posts[0] as ScriptedRelay["posts"][number]);
    expect(call.trackerQuestion).toEqual({
      trigger: "blocked",
      question: "I need the staging password to go on.",
      commentId: lastWords.id,
    });
    expect(call.brief.spoken).toContain("Claude moved RING-");
    expect(call.brief.spoken).toContain("Its last comment says: I need the staging password to go on.");
  });
});

describe("what is not a question", () => {
  it("an agent's comment without a mention, the user's own mention, a progress note, and the user moving an issue to blocked do not ring", async () => {
    const relay = await scriptedRelay(() => ({ status: 202, body: { ok: true } }));
    const daemon = await harness({ env: { RINGBACK_SERVER_URL: relay.url } });
    await daemon.configure();
    await eventually(() => daemon.fake.realtime.connections === 1);
    const { issue, task } = issueAtWork(daemon);
    const { state, user } = daemon;

    state.postAgentComment(task.id, "Working on it: the old page is now a redirect.");
    state.postAgentComment(task.id, "Halfway there.", { type: "progress_update" });
    await commentAsTheUser(daemon, issue.id, `${mentionOf(daemon)} note to self: check the redirect`);
    state.changeIssueStatus(issue.id, "blocked", { type: "member", id: user.id });
    // The one question, last: once its post arrives, everything before it has been seen and judged.
    const sentinel = state.postAgentComment(task.id, `${mentionOf(daemon)} which port should it use?`);
    const sentinelEventId = trackerEventId(`question:mention:${sentinel.id}`);
    await eventually(() => relay.posts.some(({ body }) => body.eventId === sentinelEventId), {
      on: relay.changes,
    });

    expect(relay.posts.map(({ body }) => body.eventId)).toEqual([sentinelEventId]);
  });
});

describe("a restart", () => {
  it("does not ring a question again when the tracker sends it once more", async () => {
    const relay = await scriptedRelay(duplicateRule());
    const env = { RINGBACK_SERVER_URL: relay.url };
    // Owns the simulator and stays up; it watches nothing.
    const owner = await harness({ env });
    const dataDir = await makeTemporaryDirectory("ringback-restart-");
    cleanups.push(() => dataDir.remove());
    const before = await startTrackerHarness({ env, sharedWith: owner, dataDir: dataDir.path });
    await before.configure();
    await eventually(() => owner.fake.realtime.connections === 1);
    const { task } = issueAtWork(owner);
    const comment = owner.state.postAgentComment(task.id, `${mentionOf(owner)} keep the old URLs?`);
    await eventually(() => isSettled(before, 1), { on: relay.changes });
    await before.close({ keepData: true });

    const after = await harness({ env, sharedWith: owner, dataDir: dataDir.path });
    await after.watcherCaughtUp();
    // The same comment event once more (the tracker may deliver an event twice), then a new question.
    owner.state.emit(owner.workspace.id, {
      type: "comment:created",
      payload: { comment, issue_title: "Move the login page", issue_status: "in_progress" },
      actor_id: owner.agent.id,
      actor_type: "agent",
    });
    owner.state.postAgentComment(task.id, `${mentionOf(owner)} and the old sitemap?`);
    await eventually(() => relay.posts.length >= 2, { on: relay.changes });

    expect(relay.posts).toHaveLength(2);
    expect(new Set(relay.posts.map(({ body }) => body.eventId)).size).toBe(2);
    expect(relay.posts.map(({ answeredWith }) => answeredWith)).toEqual([202, 202]);
    expect(after.logLines.some((line) => line.includes("already queued"))).toBe(true);
  });
});

describe("a question the realtime connection missed", () => {
  it("rings once at the reconnect's catch-up, from the finished task's comments, and the task makes no finished call", async () => {
    const relay = await scriptedRelay(duplicateRule());
    const daemon = await harness({ env: { RINGBACK_SERVER_URL: relay.url } });
    await daemon.configure();
    await daemon.watcherCaughtUp();
    const { fake, state } = daemon;
    const { task } = issueAtWork(daemon);

    // The connection drops and stays refused while the agent asks and ends its task.
    fake.faults.serverError("/ws", { times: 1_000_000 });
    fake.realtime.dropAll();
    await eventually(() => fake.realtime.connections === 0);
    const asked = state.postAgentComment(task.id, `${mentionOf(daemon)} which region should staging use?`);
    state.finishTask(task.id, { report: null, output: "Asked which region to use." });
    fake.faults.clear();

    const questionEventId = trackerEventId(`question:mention:${asked.id}`);
    await eventually(() => relay.posts.some(({ body }) => body.eventId === questionEventId), {
      on: relay.changes,
    });
    await eventually(() =>
      daemon.logLines.some((line) => line.includes(`task ${task.id}`) && line.includes("no finished call")),
    );
    await eventually(() => isSettled(daemon, 1));

    expect(relay.posts.map(({ body }) => body.eventId)).toEqual([questionEventId]);
    expect(relay.posts.map(({ body }) => body.eventId)).not.toContain(trackerEventId(task.id));
    // It came by the catch-up: the events of the question and of the task's end were never sent to this computer.
    expect(
      daemon.logLines.some((line) => /caught up on tasks finished since .* \(1 found\)/.test(line)),
    ).toBe(true);
  });
});

describe("a reply from the phone", () => {
  const COMPUTER_ID = "dev_laptop";

  async function linkedComputer() {
    const relay: HostileRelay = await startHostileRelay();
    cleanups.push(() => relay.close());
    const daemon = await harness({
      config: {
        serverUrl: relay.url,
        relay: { deviceToken: "computer-token-0123456789", accountId: "acc_test", deviceId: COMPUTER_ID },
      },
    });
    await daemon.configure();
    await relay.linked();
    await eventually(() => daemon.fake.realtime.connections === 1);
    const { key } = await daemon.call("/e2e/key");
    return { relay, daemon, key: parseKey(key) };
  }

  async function reply(relay: HostileRelay, key: E2eKey, eventId: string, text: string) {
    const replyId = `r_${randomBytes(6).toString("hex")}`;
    const request = await sealReply(key, { computerId: COMPUTER_ID, eventId, replyId, text });
    return relay.send({ type: "reply", eventId, ...request });
  }

  it("to a mention is posted as the user's comment under the agent's question, and settles delivered", async () => {
    const { relay, daemon, key } = await linkedComputer();
    const { issue, task } = issueAtWork(daemon);
    const asked = daemon.state.postAgentComment(task.id, `${mentionOf(daemon)} redirect or remove?`);
    const post = await eventually(() => relay.posts[0], { on: relay.changes });

    const status = await reply(relay, key, post.eventId, "Redirect, and keep it for a month.");

    expect(status).toMatchObject({ type: "reply-status", status: "delivered" });
    const comments = [...daemon.state.comments.values()].filter(
      (comment) => comment.issue_id === issue.id && comment.author_type === "member",
    );
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({
      content: "Redirect, and keep it for a month.",
      author_id: daemon.user.id,
      parent_id: asked.id,
    });
  });

  it("to a move to blocked without a comment is a top-level comment; a tracker that refuses it fails the reply with the reason", async () => {
    const { relay, daemon, key } = await linkedComputer();
    const { issue } = issueAtWork(daemon, "Deploy to staging");
    daemon.state.changeIssueStatus(issue.id, "blocked", { type: "agent", id: daemon.agent.id });
    const post = await eventually(() => relay.posts[0], { on: relay.changes });
    const call = await openJson(key, aad.report(post.eventId), post.sealed);
    expect(SealedReportPayload.parse(call).trackerQuestion).toEqual({
      trigger: "blocked",
      question: "",
      commentId: null,
    });

    daemon.fake.faults.serverError(`/api/issues/${issue.id}/comments`, { method: "POST" });
    const refused = await reply(relay, key, post.eventId, "The password is in the vault.");
    expect(refused).toMatchObject({ type: "reply-status", status: "failed" });
    const reason = await failureReason(key, refused as { replyId: string; sealedReason?: string });
    expect(reason).toContain("the comment could not be posted on RING-");

    const delivered = await reply(relay, key, post.eventId, "The password is in the vault.");
    expect(delivered).toMatchObject({ type: "reply-status", status: "delivered" });
    const comments = [...daemon.state.comments.values()].filter((comment) => comment.issue_id === issue.id);
    expect(comments.map(({ content, parent_id }) => ({ content, parent_id }))).toEqual([
      { content: "The password is in the vault.", parent_id: null },
    ]);
  });
});

describe("a move to blocked and the agent's explanation", () => {
  /** Longer than any test: only the agent's comment ends the wait here. */
  const WAIT_FOR_COMMENT_MS = 10 * 60_000;

  async function waitingDaemon() {
    const relay = await scriptedRelay(() => ({ status: 202, body: { ok: true } }));
    const daemon = await harness({
      env: { RINGBACK_SERVER_URL: relay.url },
      explanationWaitMs: WAIT_FOR_COMMENT_MS,
    });
    await daemon.configure();
    await daemon.watcherCaughtUp();
    const { key } = await daemon.call("/e2e/key");
    return { relay, daemon, key: parseKey(key) };
  }

  /** The agent moves its issue to blocked; resolves once the daemon waits for the agent's words. */
  async function agentBlocks(daemon: TrackerHarness, issueId: string): Promise<void> {
    daemon.state.changeIssueStatus(issueId, "blocked", { type: "agent", id: daemon.agent.id });
    await eventually(() =>
      daemon.logLines.some(
        (line) => line.includes(`question:blocked:${issueId}`) && line.includes("waits up to"),
      ),
    );
  }

  it("rings when the agent writes why just after its move, and reads that comment, not the one before", async () => {
    const { relay, daemon, key } = await waitingDaemon();
    const { issue, task } = issueAtWork(daemon, "Deploy to staging");
    daemon.state.postAgentComment(task.id, "Deploying to staging now.");

    await agentBlocks(daemon, issue.id);
    expect(relay.posts).toEqual([]);
    const explanation = daemon.state.postAgentComment(task.id, "I need the staging password to go on.");
    const post = await eventually(() => relay.posts[0], { on: relay.changes });

    const call = await openCall(key, post);
    expect(call.trackerQuestion).toEqual({
      trigger: "blocked",
      question: "I need the staging password to go on.",
      commentId: explanation.id,
    });
    expect(call.brief.spoken).toContain("Its last comment says: I need the staging password to go on.");
    expect(daemon.logLines).toContainEqual(
      expect.stringContaining("stopped waiting for an explanation (commented)"),
    );
  });

  it("rings once, as the question, when the explanation mentions the user", async () => {
    const { relay, daemon } = await waitingDaemon();
    const { issue, task } = issueAtWork(daemon, "Deploy to staging");

    await agentBlocks(daemon, issue.id);
    const asked = daemon.state.postAgentComment(task.id, `${mentionOf(daemon)} which staging password?`);
    await eventually(() =>
      daemon.logLines.some(
        (line) => line.includes(`question:blocked:${issue.id}`) && line.includes("needs no call"),
      ),
    );
    await eventually(() => isSettled(daemon, 1), { on: relay.changes });

    expect(relay.posts.map(({ body }) => body.eventId)).toEqual([
      trackerEventId(`question:mention:${asked.id}`),
    ]);
  });
});

describe("a move to blocked that rang, found again by a catch-up", () => {
  it("does not ring again when it rang under the issue's update time (as older versions keyed it) and the tracker's log dates the move a second later", async () => {
    const relay = await scriptedRelay(duplicateRule());
    const daemon = await harness({ env: { RINGBACK_SERVER_URL: relay.url } });
    await daemon.configure();
    await daemon.watcherCaughtUp();
    const { fake, state } = daemon;
    const { issue } = issueAtWork(daemon, "Deploy to staging");
    state.changeIssueStatus(issue.id, "blocked", { type: "agent", id: daemon.agent.id });
    await eventually(() => isSettled(daemon, 1), { on: relay.changes });
    // It rang under the issue's update time, which the log had too; here the log dates the move a second later (it is
    // written just after the update), as older versions saw it, and the issue changed since: the catch-up keys it by
    // the log's time and finds it rang under the key of the second before.
    const movedAtMs = Date.parse(issue.updated_at);
    const logged = [...state.activities.values()].filter((activity) => activity.issue_id === issue.id);
    expect(logged.map(({ action }) => action)).toEqual(["status_changed"]);
    for (const activity of logged) activity.created_at = wholeSeconds(movedAtMs + 1_000);
    issue.updated_at = wholeSeconds(movedAtMs + 2_000);

    fake.faults.serverError("/ws", { times: 1_000_000 });
    fake.realtime.dropAll();
    await eventually(() => fake.realtime.connections === 0);
    fake.faults.clear();
    await eventually(() => daemon.logLines.some((line) => line.includes("rang already as")));

    expect(daemon.logLines).toContainEqual(
      expect.stringMatching(/moves to blocked .* \(1 found, 1 by agents\)/),
    );
    expect(relay.posts).toHaveLength(1);
  });
});
