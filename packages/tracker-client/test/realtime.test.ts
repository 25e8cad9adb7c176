import type { TrackerWorkspaceStatus } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { CATCH_UP_OVERLAP_MS, type TaskFinished, type WatchWorkspaceOptions } from "../src/index.js";
import { clientFor, startTracker, type Tracker } from "./tracker.js";

/** A watcher on the tracker's workspace that records what it reports; sleeps 5 ms of real time between reconnects. */
async function watch(tracker: Tracker, options: Partial<WatchWorkspaceOptions> = {}) {
  const { client, delays, logs } = clientFor(tracker.fake, tracker.token, { sleepMs: 5 });
  const finished: TaskFinished[] = [];
  const statuses: TrackerWorkspaceStatus[] = [];
  const watcher = client.watchWorkspace({
    workspaceId: tracker.workspace.id,
    onTaskFinished: (event) => {
      finished.push(event);
    },
    onStatus: (status) => statuses.push(status),
    ...options,
  });
  const catchUps = () => logs.filter((line) => line.includes("caught up")).length;
  await expect.poll(() => watcher.status.state).toBe("connected");
  await expect.poll(catchUps).toBe(1);
  return {
    watcher,
    finished,
    statuses,
    delays,
    logs,
    catchUps,
    [Symbol.asyncDispose]: () => watcher.close(),
  };
}

function startTask(tracker: Tracker, issueId = tracker.issue.id) {
  return tracker.state.addTask({ agent_id: tracker.agent.id, issue_id: issueId });
}

describe("watching a workspace", () => {
  it("reports a finished task once, as the tracker announces it", async () => {
    await using tracker = await startTracker();
    await using watching = await watch(tracker);
    const task = startTask(tracker);

    tracker.state.finishTask(task.id, { report: "Done." });

    await expect.poll(() => watching.finished).toHaveLength(1);
    expect(watching.finished[0]).toEqual({
      workspaceId: tracker.workspace.id,
      taskId: task.id,
      agentId: tracker.agent.id,
      issueId: tracker.issue.id,
      status: "completed",
      failureReason: null,
      completedAt: null,
      via: "realtime",
    });
    expect(watching.statuses.map((status) => status.state)).toEqual(["connecting", "connected"]);
    expect(watching.watcher.status.connectedAt).toEqual(expect.any(String));
  });

  it("reconnects after the tracker drops the connection, without reporting a task twice", async () => {
    await using tracker = await startTracker();
    await using watching = await watch(tracker);
    const task = startTask(tracker);
    tracker.state.finishTask(task.id);
    await expect.poll(() => watching.finished).toHaveLength(1);

    tracker.fake.realtime.dropAll();

    await expect.poll(watching.catchUps).toBe(2);
    expect(tracker.fake.realtime.accepted).toBe(2);
    expect(watching.finished).toHaveLength(1);
    expect(watching.statuses.map((status) => status.state)).toEqual([
      "connecting",
      "connected",
      "disconnected",
      "connecting",
      "connected",
    ]);
    expect(watching.delays).toEqual([1000]);
  });

  it("catches up on a task that finished while the connection was down", async () => {
    await using tracker = await startTracker();
    await using watching = await watch(tracker);
    const task = startTask(tracker);
    tracker.fake.faults.reset("/ws", { times: Number.POSITIVE_INFINITY });
    tracker.fake.realtime.dropAll();
    await expect.poll(() => watching.watcher.status.state).not.toBe("connected");

    tracker.state.finishTask(task.id);
    await expect.poll(() => watching.delays.length).toBeGreaterThanOrEqual(3);
    expect(watching.finished).toEqual([]);
    tracker.fake.faults.clear();

    await expect.poll(() => watching.finished).toHaveLength(1);
    expect(watching.finished[0]).toMatchObject({ taskId: task.id, status: "completed", via: "catch-up" });
    expect(watching.finished[0]?.completedAt).toEqual(expect.any(String));
    expect(watching.delays.slice(0, 3)).toEqual([1000, 1000, 2000]);
  });

  it("catches up from `since` on the first connection, and not on tasks finished before it", async () => {
    await using tracker = await startTracker();
    const { state, agent, issue } = tracker;
    state.addTask({
      agent_id: agent.id,
      issue_id: issue.id,
      status: "completed",
      completed_at: "2026-08-22T09:00:00Z",
    });
    const recent = state.addTask({
      agent_id: agent.id,
      issue_id: issue.id,
      status: "completed",
      completed_at: "2026-08-22T11:00:00Z",
    });

    await using fromNow = await watch(tracker);
    await using fromTen = await watch(tracker, { since: "2026-08-22T10:00:00Z" });

    expect(fromNow.finished).toEqual([]);
    expect(fromTen.finished.map((event) => [event.taskId, event.via])).toEqual([[recent.id, "catch-up"]]);
  });

  it("catches up on a task finished in the second the watch began, whose whole-second time is before it", async () => {
    await using tracker = await startTracker();
    const { state, agent, issue } = tracker;
    const sameSecond = state.addTask({
      agent_id: agent.id,
      issue_id: issue.id,
      status: "completed",
      completed_at: "2026-08-22T10:00:00Z",
    });
    state.addTask({
      agent_id: agent.id,
      issue_id: issue.id,
      status: "completed",
      completed_at: "2026-08-22T09:59:59Z",
    });

    await using watching = await watch(tracker, { since: "2026-08-22T10:00:00.900Z" });

    expect(watching.finished.map((event) => event.taskId)).toEqual([sameSecond.id]);
  });

  it("reports failures, but not a failure the tracker retries, nor a quick-create task without its issue", async () => {
    await using tracker = await startTracker();
    await using watching = await watch(tracker);
    const { client } = clientFor(tracker.fake, tracker.token);
    const retried = startTask(tracker);
    const failed = startTask(tracker);
    const { taskId } = await client.quickCreateIssue({
      workspaceId: tracker.workspace.id,
      prompt: "Add dark mode",
      agentId: tracker.agent.id,
    });

    const { retry } = tracker.state.failTask(retried.id, { retryPending: true });
    tracker.state.failTask(failed.id, { failureReason: "timeout" });
    const { followUp } = tracker.state.completeQuickCreate(taskId, { title: "Dark mode" });
    tracker.state.finishTask(followUp?.id ?? "");
    tracker.state.finishTask(retry?.id ?? "");

    await expect.poll(() => watching.finished).toHaveLength(3);
    expect(watching.finished.map((event) => [event.taskId, event.status, event.failureReason])).toEqual([
      [failed.id, "failed", "timeout"],
      [followUp?.id, "completed", null],
      [retry?.id, "completed", null],
    ]);

    // A catch-up over the same tasks agrees: nothing more to report.
    tracker.fake.realtime.dropAll();
    await expect.poll(watching.catchUps).toBe(2);
    expect(watching.finished).toHaveLength(3);
  });

  it("reports a task again on the next catch-up when handling it failed", async () => {
    await using tracker = await startTracker();
    let attempts = 0;
    const handled: string[] = [];
    await using watching = await watch(tracker, {
      onTaskFinished: (event) => {
        attempts += 1;
        if (attempts === 1) throw new Error("disk full");
        handled.push(event.taskId);
      },
    });
    const task = startTask(tracker);

    tracker.state.finishTask(task.id);
    await expect.poll(() => attempts).toBe(1);
    tracker.fake.realtime.dropAll();

    await expect.poll(() => handled).toEqual([task.id]);
    expect(watching.logs.some((line) => line.includes("disk full"))).toBe(true);
  });

  it("reports a task found by a catch-up again at the next one when handling it failed, and resumes from before it", async () => {
    await using tracker = await startTracker();
    const old = tracker.state.addTask({
      agent_id: tracker.agent.id,
      issue_id: tracker.issue.id,
      status: "completed",
      completed_at: "2026-08-22T11:00:00Z",
    });
    let attempts = 0;
    const handled: string[] = [];
    await using watching = await watch(tracker, {
      since: "2026-08-22T10:00:00Z",
      onTaskFinished: (event) => {
        attempts += 1;
        if (attempts === 1) throw new Error("disk full");
        handled.push(event.taskId);
      },
    });
    expect(attempts).toBe(1);
    expect(watching.logs.some((line) => line.includes("1 found, 1 to try again at the next catch-up"))).toBe(
      true,
    );
    // Where a restart would resume is still before the task.
    expect(watching.watcher.resumeSince().toISOString()).toBe("2026-08-22T10:00:00.000Z");

    tracker.fake.realtime.dropAll();
    await expect.poll(() => handled).toEqual([old.id]);
    await expect
      .poll(() => watching.watcher.resumeSince().getTime())
      .toBeGreaterThan(Date.parse("2026-08-23"));
  });

  it("hands each catch-up's start to onCatchUp, and catches up again from it when that fails", async () => {
    await using tracker = await startTracker();
    const starts: string[] = [];
    await using watching = await watch(tracker, {
      since: "2026-08-22T10:00:00Z",
      onCatchUp: async (since) => {
        starts.push(since.toISOString());
        if (starts.length === 2) throw new Error("tracker busy");
      },
    });
    expect(starts).toEqual(["2026-08-22T10:00:00.000Z"]);

    const droppedAtMs = Date.now();
    tracker.fake.realtime.dropAll();

    await expect.poll(() => starts).toHaveLength(3);
    expect(starts[2]).toBe(starts[1]);
    const uncoveredFromMs = Date.parse(starts[1] ?? "");
    expect(uncoveredFromMs).toBeGreaterThanOrEqual(droppedAtMs - CATCH_UP_OVERLAP_MS);
    expect(uncoveredFromMs).toBeLessThanOrEqual(Date.now() - CATCH_UP_OVERLAP_MS);
    expect(watching.logs.some((line) => line.includes("catch-up failed (tracker busy)"))).toBe(true);
  });

  it("says where a later watcher resumes: its own `since` until caught up, the overlap before now while covered, the loss while not, the close once closed", async () => {
    await using tracker = await startTracker();
    let releaseCatchUp = () => {};
    const firstCatchUpHeld = new Promise<void>((resolve) => {
      releaseCatchUp = resolve;
    });
    const { client } = clientFor(tracker.fake, tracker.token, { sleepMs: 5 });
    let catchUps = 0;
    await using watcher = client.watchWorkspace({
      workspaceId: tracker.workspace.id,
      since: "2026-08-22T10:00:00Z",
      onTaskFinished: () => {},
      onCatchUp: async () => {
        catchUps += 1;
        if (catchUps === 1) await firstCatchUpHeld;
      },
    });
    await expect.poll(() => catchUps).toBe(1);
    expect(watcher.resumeSince().toISOString()).toBe("2026-08-22T10:00:00.000Z");

    releaseCatchUp();
    const coveredFrom = () => Date.now() - CATCH_UP_OVERLAP_MS;
    await expect.poll(() => watcher.resumeSince().getTime()).toBeGreaterThan(coveredFrom() - 1_000);

    tracker.fake.faults.reset("/ws", { times: Number.POSITIVE_INFINITY });
    const droppedAtMs = Date.now();
    tracker.fake.realtime.dropAll();
    await expect.poll(() => watcher.status.state).not.toBe("connected");
    const whileAway = watcher.resumeSince().getTime();
    expect(whileAway).toBeGreaterThanOrEqual(droppedAtMs - CATCH_UP_OVERLAP_MS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(watcher.resumeSince().getTime()).toBe(whileAway);

    tracker.fake.faults.clear();
    await expect.poll(() => catchUps).toBe(2);
    await expect.poll(() => watcher.resumeSince().getTime()).toBeGreaterThan(whileAway);
    const closedAtMs = Date.now();
    await watcher.close();
    const afterClose = watcher.resumeSince().getTime();
    expect(afterClose).toBeGreaterThanOrEqual(closedAtMs - CATCH_UP_OVERLAP_MS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(watcher.resumeSince().getTime()).toBe(afterClose);
  });

  it("reports the tracker's refusal and keeps retrying with growing waits", async () => {
    await using tracker = await startTracker();
    const outsider = tracker.state.addUser();
    const { client, delays } = clientFor(tracker.fake, outsider.token, { sleepMs: 5 });
    const statuses: TrackerWorkspaceStatus[] = [];
    await using watcher = client.watchWorkspace({
      workspaceId: tracker.workspace.id,
      onTaskFinished: () => {},
      onStatus: (status) => statuses.push(status),
    });

    await expect.poll(() => delays.length).toBeGreaterThanOrEqual(4);

    expect(delays.slice(0, 4)).toEqual([1000, 2000, 4000, 8000]);
    expect(statuses).toContainEqual(
      expect.objectContaining({ state: "error", error: "not a member of this workspace", connectedAt: null }),
    );
    expect(watcher.status.state).not.toBe("connected");
    expect(tracker.fake.realtime.accepted).toBe(0);
  });

  it("reconnects when the connection goes silent", async () => {
    await using tracker = await startTracker();
    await using watching = await watch(tracker, { keepaliveIntervalMs: 20, silenceTimeoutMs: 150 });

    tracker.fake.realtime.setSilent(true);
    await expect.poll(() => watching.statuses.some((status) => status.state === "disconnected")).toBe(true);
    tracker.fake.realtime.setSilent(false);

    await expect.poll(() => tracker.fake.realtime.accepted).toBeGreaterThanOrEqual(2);
    await expect.poll(() => watching.watcher.status.state).toBe("connected");
    expect(watching.logs.some((line) => line.includes("nothing heard for 150 ms"))).toBe(true);
  });

  it("stops reconnecting once closed", async () => {
    await using tracker = await startTracker();
    const watching = await watch(tracker);

    // close() resolves once the watch loop has ended and its socket is gone: nothing can reconnect or arrive after it.
    await watching.watcher.close();
    await expect.poll(() => tracker.fake.realtime.connections, { timeout: 10_000 }).toBe(0);
    tracker.state.finishTask(startTask(tracker).id);

    expect(watching.watcher.status.state).toBe("disconnected");
    expect(tracker.fake.realtime.accepted).toBe(1);
    expect(watching.finished).toEqual([]);
  });
});
