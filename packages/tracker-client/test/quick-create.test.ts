import { describe, expect, it } from "vitest";
import { clientFor, rejectionOf, startTracker } from "./tracker.js";

describe("quick-create", () => {
  it("asks the agent to write an issue and returns the task to follow, linked to the issue once it exists", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;
    const image = await client.uploadFile({
      workspaceId,
      filename: "mock.png",
      contentType: "image/png",
      data: new Uint8Array([1, 2, 3]),
    });

    const { taskId } = await client.quickCreateIssue({
      workspaceId,
      prompt: "Add a dark mode toggle",
      agentId: tracker.agent.id,
      projectId: tracker.project.id,
      attachmentIds: [image.id],
    });

    expect(tracker.state.quickCreateRequests.get(taskId)).toMatchObject({
      prompt: "Add a dark mode toggle",
      agent_id: tracker.agent.id,
      project_id: tracker.project.id,
      attachment_ids: [image.id],
      requester_id: tracker.user.id,
    });
    const pending = await client.getAgentTask({ workspaceId, agentId: tracker.agent.id, taskId });
    expect(pending).toMatchObject({ kind: "quick_create", status: "queued", issueId: null });

    const { issue } = tracker.state.completeQuickCreate(taskId, {
      title: "Dark mode toggle",
      priority: "medium",
    });

    const linked = await client.getAgentTask({ workspaceId, agentId: tracker.agent.id, taskId });
    expect(linked).toMatchObject({ status: "completed", issueId: issue.id });
    expect(await client.getIssue({ workspaceId, issueId: issue.id })).toMatchObject({
      title: "Dark mode toggle",
      projectId: tracker.project.id,
      assigneeId: tracker.agent.id,
    });
  });

  it("sends only the prompt and the agent when there is no project and no attachment", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);

    const { taskId } = await client.quickCreateIssue({
      workspaceId: tracker.workspace.id,
      prompt: "Tidy the README",
      agentId: tracker.agent.id,
    });

    expect(tracker.state.quickCreateRequests.get(taskId)).toMatchObject({
      project_id: null,
      attachment_ids: [],
    });
  });

  it("answers agent_unavailable with the tracker's reason when the agent's runtime is offline or missing", async () => {
    await using tracker = await startTracker();
    const unbound = tracker.state.addAgent(tracker.workspace.id, { name: "Unbound" });
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;

    expect(
      await rejectionOf(
        client.quickCreateIssue({ workspaceId, prompt: "Go", agentId: tracker.offlineAgent.id }),
      ),
    ).toMatchObject({
      code: "agent_unavailable",
      status: 422,
      trackerStatus: 422,
      message: "agent runtime is offline",
    });
    expect(
      await rejectionOf(client.quickCreateIssue({ workspaceId, prompt: "Go", agentId: unbound.id })),
    ).toMatchObject({
      code: "agent_unavailable",
      message: "agent has no runtime bound",
    });
  });

  it("answers agent_unavailable when the agent's runtime runs a CLI too old for quick-create", async () => {
    await using tracker = await startTracker();
    tracker.onlineRuntime.metadata = { cli_version: "0.2.3" };
    const { client } = clientFor(tracker.fake, tracker.token);

    const error = await rejectionOf(
      client.quickCreateIssue({ workspaceId: tracker.workspace.id, prompt: "Go", agentId: tracker.agent.id }),
    );

    expect(error).toMatchObject({ code: "agent_unavailable", trackerStatus: 422 });
    expect(error.message).toContain("0.2.3");
    expect(error.message).toContain("0.2.21");
  });

  it("answers agent_unavailable for an archived agent and for a private agent of someone else", async () => {
    await using tracker = await startTracker();
    const { state, workspace, onlineRuntime } = tracker;
    const archived = state.addAgent(workspace.id, {
      name: "Old",
      runtime_id: onlineRuntime.id,
      archived_at: "2026-01-01T00:00:00Z",
    });
    const privateAgent = state.addAgent(workspace.id, {
      name: "Mine",
      runtime_id: onlineRuntime.id,
      permission_mode: "private",
      owner_id: crypto.randomUUID(),
    });
    const { client } = clientFor(tracker.fake, tracker.token);

    for (const agentId of [archived.id, privateAgent.id]) {
      expect(
        await rejectionOf(client.quickCreateIssue({ workspaceId: workspace.id, prompt: "Go", agentId })),
      ).toMatchObject({ code: "agent_unavailable" });
    }
  });

  it("answers agent_not_found for an agent that is not in the workspace", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;

    for (const agentId of [crypto.randomUUID(), "claude"]) {
      expect(
        await rejectionOf(client.quickCreateIssue({ workspaceId, prompt: "Go", agentId })),
      ).toMatchObject({
        code: "agent_not_found",
        trackerStatus: 400,
      });
    }
  });

  it("answers project_not_found for a project that is not in the workspace", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);

    const error = await rejectionOf(
      client.quickCreateIssue({
        workspaceId: tracker.workspace.id,
        prompt: "Go",
        agentId: tracker.agent.id,
        projectId: crypto.randomUUID(),
      }),
    );

    expect(error).toMatchObject({
      code: "project_not_found",
      trackerStatus: 400,
      message: "project not found",
    });
  });
});
