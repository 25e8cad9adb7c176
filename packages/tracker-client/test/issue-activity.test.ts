import { describe, expect, it } from "vitest";
import type { IssueActivity } from "../src/index.js";
import { clientFor, startTracker } from "./tracker.js";

describe("watching a workspace's issue activity", () => {
  it("reports an agent's comment and a move to blocked, with who did them; nothing is reported without a listener", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token, { sleepMs: 5 });
    const activity: IssueActivity[] = [];
    await using watcher = client.watchWorkspace({
      workspaceId: tracker.workspace.id,
      onTaskFinished: () => undefined,
      onIssueActivity: (event) => {
        activity.push(event);
      },
    });
    await expect.poll(() => watcher.status.state).toBe("connected");
    const task = tracker.state.addTask({ agent_id: tracker.agent.id, issue_id: tracker.issue.id });

    const comment = tracker.state.postAgentComment(task.id, "[@Ada](mention://member/u1) which region?");
    const issue = tracker.state.changeIssueStatus(tracker.issue.id, "blocked", {
      type: "agent",
      id: tracker.agent.id,
    });

    await expect.poll(() => activity).toHaveLength(2);
    expect(activity[0]).toMatchObject({
      kind: "comment",
      workspaceId: tracker.workspace.id,
      issueId: tracker.issue.id,
      comment: { id: comment.id, authorType: "agent", sourceTaskId: task.id, content: comment.content },
      actor: { type: "agent", id: tracker.agent.id },
    });
    expect(activity[1]).toEqual({
      kind: "status",
      workspaceId: tracker.workspace.id,
      issueId: tracker.issue.id,
      status: "blocked",
      statusCategory: "blocked",
      previousStatus: expect.any(String),
      updatedAt: issue.updated_at,
      actor: { type: "agent", id: tracker.agent.id },
    });
  });

  it("reads the token's user and posts a reply under a comment", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token, { sleepMs: 5 });
    const task = tracker.state.addTask({ agent_id: tracker.agent.id, issue_id: tracker.issue.id });
    const asked = tracker.state.postAgentComment(task.id, "Which region?");

    const me = await client.getMe();
    const reply = await client.postComment({
      workspaceId: tracker.workspace.id,
      issueId: tracker.issue.id,
      content: "eu-west",
      parentId: asked.id,
    });

    expect(me.id).toBe(tracker.user.id);
    expect(reply).toMatchObject({
      content: "eu-west",
      parentId: asked.id,
      authorType: "member",
      authorId: me.id,
    });
  });
});
