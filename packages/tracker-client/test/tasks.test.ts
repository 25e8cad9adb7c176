import { describe, expect, it } from "vitest";
import { clientFor, rejectionOf, startTracker } from "./tracker.js";

describe("agent tasks", () => {
  it("lists an agent's tasks newest first, with the output and an absent issue as null", async () => {
    await using tracker = await startTracker();
    const { state, agent, issue } = tracker;
    const first = state.addTask({ agent_id: agent.id, issue_id: issue.id });
    state.finishTask(first.id, { report: "Fixed it.", output: "All green." });
    const second = state.addTask({ agent_id: agent.id, kind: "quick_create", status: "queued" });
    const { client } = clientFor(tracker.fake, tracker.token);

    const tasks = await client.listAgentTasks({ workspaceId: tracker.workspace.id, agentId: agent.id });

    expect(tasks.map((task) => task.id)).toEqual([second.id, first.id]);
    expect(tasks[1]).toMatchObject({
      agentId: agent.id,
      issueId: issue.id,
      status: "completed",
      kind: "direct",
      output: "All green.",
      runtimeId: tracker.onlineRuntime.id,
    });
    expect(tasks[1]?.completedAt).toEqual(expect.any(String));
    expect(tasks[0]).toMatchObject({
      issueId: null,
      kind: "quick_create",
      status: "queued",
      completedAt: null,
    });
  });

  it("reads one task through its agent, and gives null for a task the agent does not have", async () => {
    await using tracker = await startTracker();
    const task = tracker.state.addTask({ agent_id: tracker.agent.id, issue_id: tracker.issue.id });
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;

    expect(
      await client.getAgentTask({ workspaceId, agentId: tracker.agent.id, taskId: task.id }),
    ).toMatchObject({
      id: task.id,
      status: "running",
    });
    expect(
      await client.getAgentTask({ workspaceId, agentId: tracker.agent.id, taskId: crypto.randomUUID() }),
    ).toBeNull();
    expect(
      await rejectionOf(client.getAgentTask({ workspaceId, agentId: crypto.randomUUID(), taskId: task.id })),
    ).toMatchObject({ code: "agent_not_found" });
  });

  it("lists the tasks that ran on an issue", async () => {
    await using tracker = await startTracker();
    const task = tracker.state.addTask({ agent_id: tracker.agent.id, issue_id: tracker.issue.id });
    tracker.state.addTask({ agent_id: tracker.agent.id, kind: "quick_create" });
    const { client } = clientFor(tracker.fake, tracker.token);

    const tasks = await client.listIssueTasks({
      workspaceId: tracker.workspace.id,
      issueId: tracker.issue.id,
    });

    expect(tasks.map((found) => found.id)).toEqual([task.id]);
    expect(
      await rejectionOf(
        client.listIssueTasks({ workspaceId: tracker.workspace.id, issueId: crypto.randomUUID() }),
      ),
    ).toMatchObject({ code: "issue_not_found" });
  });

  it("lists the workspace's tasks finished since a time, across agents, oldest first", async () => {
    await using tracker = await startTracker();
    const { state, agent, offlineAgent, issue } = tracker;
    const at = (minute: number) => `2026-08-22T10:${String(minute).padStart(2, "0")}:00Z`;
    state.addTask({ agent_id: agent.id, issue_id: issue.id, status: "completed", completed_at: at(1) });
    const failed = state.addTask({
      agent_id: offlineAgent.id,
      issue_id: issue.id,
      status: "failed",
      completed_at: at(7),
    });
    const cancelled = state.addTask({
      agent_id: agent.id,
      issue_id: issue.id,
      status: "cancelled",
      completed_at: at(6),
    });
    const completed = state.addTask({
      agent_id: agent.id,
      issue_id: issue.id,
      status: "completed",
      completed_at: at(5),
    });
    state.addTask({ agent_id: agent.id, issue_id: issue.id, status: "running" });
    const { client } = clientFor(tracker.fake, tracker.token);

    const finished = await client.listFinishedTasks({ workspaceId: tracker.workspace.id, since: at(5) });

    expect(finished.map((task) => task.id)).toEqual([completed.id, cancelled.id, failed.id]);
  });

  it("cancels a running task, and leaves a finished one as it is", async () => {
    await using tracker = await startTracker();
    const running = tracker.state.addTask({ agent_id: tracker.agent.id, issue_id: tracker.issue.id });
    const done = tracker.state.addTask({ agent_id: tracker.agent.id, issue_id: tracker.issue.id });
    tracker.state.finishTask(done.id);
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;

    expect(await client.cancelTask({ workspaceId, taskId: running.id })).toMatchObject({
      status: "cancelled",
    });
    expect(tracker.state.tasks.get(running.id)?.status).toBe("cancelled");
    expect(await client.cancelTask({ workspaceId, taskId: done.id })).toMatchObject({ status: "completed" });
  });

  it("cancels a quick-create task, which has no issue", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;
    const { taskId } = await client.quickCreateIssue({
      workspaceId,
      prompt: "Add dark mode",
      agentId: tracker.agent.id,
    });

    expect(await client.cancelTask({ workspaceId, taskId })).toMatchObject({
      id: taskId,
      status: "cancelled",
      issueId: null,
    });
  });

  it("answers not_found when cancelling a task that is not in the workspace", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);

    expect(
      await rejectionOf(
        client.cancelTask({ workspaceId: tracker.workspace.id, taskId: crypto.randomUUID() }),
      ),
    ).toMatchObject({ code: "not_found", trackerStatus: 404, message: "task not found" });
  });
});
