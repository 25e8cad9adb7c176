import { describe, expect, it } from "vitest";
import { clientFor, rejectionOf, startTracker } from "./tracker.js";

describe("comments", () => {
  it("lists an issue's comments in order, with the agent task that wrote a report", async () => {
    await using tracker = await startTracker();
    const { state, issue, agent } = tracker;
    const question = state.addComment(issue.id, { content: "Please fix", author_id: tracker.user.id });
    const task = state.addTask({ agent_id: agent.id, issue_id: issue.id });
    const { comment: report } = state.finishTask(task.id, {
      report: "Fixed: the redirect now keeps the path.",
    });
    const { client } = clientFor(tracker.fake, tracker.token);

    const comments = await client.listComments({ workspaceId: tracker.workspace.id, issueId: issue.id });

    expect(comments.map((comment) => comment.id)).toEqual([question.id, report?.id]);
    expect(comments[1]).toMatchObject({
      issueId: issue.id,
      authorType: "agent",
      authorId: agent.id,
      content: "Fixed: the redirect now keeps the path.",
      type: "comment",
      parentId: null,
      sourceTaskId: task.id,
    });
    expect(comments[0]).toMatchObject({
      authorType: "member",
      authorId: tracker.user.id,
      sourceTaskId: null,
    });
  });

  it("lists only comments created after `since`", async () => {
    await using tracker = await startTracker();
    const { state, issue } = tracker;
    state.addComment(issue.id, { content: "old", created_at: "2026-08-22T10:00:00Z" });
    const recent = state.addComment(issue.id, { content: "new", created_at: "2026-08-22T10:00:02Z" });
    const { client } = clientFor(tracker.fake, tracker.token);

    const comments = await client.listComments({
      workspaceId: tracker.workspace.id,
      issueId: issue.id,
      since: new Date("2026-08-22T10:00:01Z"),
    });

    expect(comments.map((comment) => comment.id)).toEqual([recent.id]);
    expect(tracker.fake.requests.matching("GET", /\/comments$/)[0]?.query.since).toBe(
      "2026-08-22T10:00:01.000Z",
    );
  });

  it("posts a top-level comment as the user, with attachments, and the tracker triggers the assigned agent", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;
    const image = await client.uploadFile({
      workspaceId,
      filename: "screen.png",
      contentType: "image/png",
      data: new Uint8Array([137, 80, 78, 71]),
    });

    const comment = await client.postComment({
      workspaceId,
      issueId: tracker.issue.id,
      content: `Still broken on Safari\n\n![screen.png](${image.markdownUrl})`,
      attachmentIds: [image.id],
    });

    expect(comment).toMatchObject({
      issueId: tracker.issue.id,
      authorType: "member",
      authorId: tracker.user.id,
      parentId: null,
      attachments: [{ id: image.id, filename: "screen.png", markdownUrl: image.markdownUrl }],
    });
    const [request] = tracker.fake.requests.matching("POST", /\/comments$/);
    expect(request?.path).toBe(`/api/issues/${tracker.issue.id}/comments`);
    const triggered = [...tracker.state.tasks.values()].filter(
      (task) => task.trigger_comment_id === comment.id,
    );
    expect(triggered).toEqual([
      expect.objectContaining({ agent_id: tracker.agent.id, kind: "comment", status: "queued" }),
    ]);
  });

  it("answers issue_not_found when commenting on or listing an unknown issue", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;
    const issueId = crypto.randomUUID();

    expect(await rejectionOf(client.postComment({ workspaceId, issueId, content: "hello" }))).toMatchObject({
      code: "issue_not_found",
      status: 422,
      trackerStatus: 404,
    });
    expect(await rejectionOf(client.listComments({ workspaceId, issueId }))).toMatchObject({
      code: "issue_not_found",
    });
  });
});
