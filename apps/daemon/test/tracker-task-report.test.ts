import { createHash } from "node:crypto";
import type { Report } from "@ringback/protocol";
import { eventually } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTrackerHarness, type TrackerHarness } from "./tracker-harness.js";

let harness: TrackerHarness;

beforeEach(async () => {
  harness = await startTrackerHarness();
  await harness.configure();
  await eventually(() => harness.fake.realtime.connections === 1);
});

afterEach(async () => {
  await harness.close();
});

function trackerReports(): Report[] {
  return harness.outbox
    .entries()
    .map((entry) => entry.report)
    .filter((report) => report.source === "tracker");
}

function expectedEventId(taskId: string): string {
  return `evt_${createHash("sha256").update(`tracker\n${taskId}`).digest("hex").slice(0, 32)}`;
}

/** An issue assigned to the agent with a running task on it. */
function runningTask(issueInput: {
  title: string;
  priority?: "urgent" | "high" | "medium" | "low" | "none";
}) {
  const { state, workspace, agent, project } = harness;
  const issue = state.addIssue(workspace.id, {
    ...issueInput,
    project_id: project.id,
    assignee_type: "agent",
    assignee_id: agent.id,
  });
  const task = state.addTask({ agent_id: agent.id, issue_id: issue.id, status: "running" });
  return { issue, task };
}

describe("a finished tracker task", () => {
  it("puts one report in the outbox with the agent's report comment and the issue's context", async () => {
    const { state, workspace, agent } = harness;
    const { issue, task } = runningTask({ title: "Fix the login page", priority: "high" });
    const otherAgent = state.addAgent(workspace.id, { name: "Other" });
    state.addComment(issue.id, { content: "Please fix it", author_type: "member" });
    state.addComment(issue.id, {
      content: "Working on it",
      author_type: "agent",
      author_id: agent.id,
      source_task_id: task.id,
      type: "progress_update",
    });
    state.addComment(issue.id, {
      content: "Not my report",
      author_type: "agent",
      author_id: otherAgent.id,
      source_task_id: task.id,
    });
    state.finishTask(task.id, { report: "Fixed the login page; 14 tests pass.", output: "final words" });

    await eventually(() => trackerReports().length === 1);
    const [report] = trackerReports();
    expect(report).toEqual({
      eventId: expectedEventId(task.id),
      source: "tracker",
      occurredAt: new Date(task.completed_at as string).toISOString(),
      text: "Fixed the login page; 14 tests pass.",
      tracker: {
        workspaceId: workspace.id,
        workspaceName: "Ringback",
        taskId: task.id,
        issueId: issue.id,
        issueIdentifier: "RING-1",
        issueTitle: "Fix the login page",
        projectId: harness.project.id,
        projectName: "Website",
        priority: "high",
        issueUpdatedAt: issue.updated_at,
        agentName: "Claude",
      },
    });
  });

  it("falls back to the task's output when the agent left no comment", async () => {
    const { task } = runningTask({ title: "Quiet agent" });
    harness.state.finishTask(task.id, { report: null, output: "Done without a comment." });
    await eventually(() => trackerReports().length === 1);
    expect(trackerReports()[0]?.text).toBe("Done without a comment.");
  });

  it("reports a failed task with the tracker's reason", async () => {
    const { task } = runningTask({ title: "Hard one" });
    harness.state.failTask(task.id, { failureReason: "agent_timeout" });
    await eventually(() => trackerReports().length === 1);
    expect(trackerReports()[0]?.text).toContain("the task failed: agent_timeout");
  });

  it("reports a task once even when a reconnect's catch-up finds it again", async () => {
    const { task } = runningTask({ title: "Once" });
    harness.state.finishTask(task.id, { report: "Done once." });
    await eventually(() => trackerReports().length === 1);
    const catchUps = () =>
      harness.logLines.filter((line) => line.includes("caught up on tasks finished")).length;
    const before = catchUps();
    harness.fake.realtime.dropAll();
    // The catch-up after the reconnect lists every agent's tasks: the task is seen a second time.
    await eventually(() => catchUps() > before);
    expect(trackerReports()).toHaveLength(1);
    expect(await harness.outbox.enqueue(trackerReports()[0] as Report)).toBe("duplicate");
  });

  it("reports a task that finished while the connection was down, after the reconnect", async () => {
    const { task } = runningTask({ title: "While away" });
    harness.fake.faults.reset("/ws", { times: 2 });
    harness.fake.realtime.dropAll();
    harness.state.finishTask(task.id, { report: "Finished while you were away." });
    await eventually(() => trackerReports().length === 1);
    expect(trackerReports()[0]?.tracker?.taskId).toBe(task.id);
  });

  it("makes no call for a task whose issue was deleted", async () => {
    const { issue, task } = runningTask({ title: "Gone" });
    harness.state.finishTask(task.id, { report: "Done." });
    harness.state.issues.delete(issue.id);
    await eventually(() => harness.logLines.some((line) => line.includes("which no longer exists")));
    expect(trackerReports()).toHaveLength(0);
  });
});

describe("a tracker task's turn also reported by the hook (Codex UI)", () => {
  const hookReport = (text: string) => ({
    source: "codex",
    sessionId: "thread-1",
    turnId: "turn-1",
    cwd: "/home/ada/multica_workspaces/task",
    text,
  });

  it("rings once when the hook's report came first: the tracker report is not queued", async () => {
    const { task } = runningTask({ title: "Seen by both" });
    const response = await harness.request("/report", { body: hookReport("All done, PR opened.") });
    expect(response.status).toBe(202);
    harness.state.finishTask(task.id, { report: "All done, PR opened." });
    await eventually(() =>
      harness.logLines.some((line) => line.includes("was already reported by the hook")),
    );
    expect(trackerReports()).toHaveLength(0);
    expect(harness.outbox.entries().filter((entry) => entry.report.source === "codex")).toHaveLength(1);
  });

  it("rings once when the tracker task came first: the hook's report is answered as a duplicate", async () => {
    const { task } = runningTask({ title: "Tracker first" });
    harness.state.finishTask(task.id, { report: "Shipped it." });
    await eventually(() => trackerReports().length === 1);
    const response = await harness.request("/report", { body: hookReport("Shipped it.") });
    expect(response.status).toBe(202);
    expect(harness.outbox.entries().filter((entry) => entry.report.source === "codex")).toHaveLength(0);
  });

  it("still reports an unrelated hook turn", async () => {
    const { task } = runningTask({ title: "Unrelated" });
    harness.state.finishTask(task.id, { report: "Tracker words." });
    await eventually(() => trackerReports().length === 1);
    await harness.request("/report", { body: hookReport("Something else entirely.") });
    expect(harness.outbox.entries().filter((entry) => entry.report.source === "codex")).toHaveLength(1);
  });
});
