import { describe, expect, it } from "vitest";
import { ISSUE_LIST_LIMIT_MAX } from "../src/index.js";
import { clientFor, rejectionOf, startTracker } from "./tracker.js";

describe("an issue's status moves", () => {
  it("are read from its timeline, oldest first, with who made each; its comments are left out", async () => {
    await using tracker = await startTracker();
    const { state, issue, agent, user } = tracker;
    state.changeIssueStatus(issue.id, "in_progress", { type: "member", id: user.id });
    state.addComment(issue.id, { content: "On it." });
    state.changeIssueStatus(issue.id, "blocked", { type: "agent", id: agent.id });
    const { client } = clientFor(tracker.fake, tracker.token);

    const moves = await client.listStatusMoves({ workspaceId: tracker.workspace.id, issueId: issue.id });

    expect(moves.map(({ actorType, actorId, from, to }) => ({ actorType, actorId, from, to }))).toEqual([
      { actorType: "member", actorId: user.id, from: "todo", to: "in_progress" },
      { actorType: "agent", actorId: agent.id, from: "in_progress", to: "blocked" },
    ]);
    expect(moves[1]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("of an unknown issue fail as issue_not_found", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);

    const error = await rejectionOf(
      client.listStatusMoves({ workspaceId: tracker.workspace.id, issueId: "RING-99" }),
    );

    expect(error.code).toBe("issue_not_found");
  });
});

describe("issues updated since a time", () => {
  it("are those of the status categories asked, updated in its second or later, read page by page", async () => {
    await using tracker = await startTracker();
    const { state, workspace } = tracker;
    const blocked = (updatedAt: string) =>
      state.addIssue(workspace.id, { title: "Waiting", status: "blocked", updated_at: updatedAt });
    const recent = Array.from({ length: ISSUE_LIST_LIMIT_MAX + 20 }, () => blocked("2026-08-22T10:00:05Z"));
    const sameSecond = blocked("2026-08-22T10:00:00Z");
    blocked("2026-08-22T09:59:59Z");
    state.addIssue(workspace.id, {
      title: "Busy",
      status: "in_progress",
      updated_at: "2026-08-22T10:00:07Z",
    });
    const { client } = clientFor(tracker.fake, tracker.token);

    const issues = await client.listIssuesUpdatedSince({
      workspaceId: workspace.id,
      statusCategories: ["blocked"],
      since: "2026-08-22T10:00:00.700Z",
    });

    expect(issues.map((issue) => issue.id).sort()).toEqual(
      [...recent, sameSecond].map((issue) => issue.id).sort(),
    );
    expect(tracker.fake.requests.count("GET", "/api/issues")).toBe(2);
  });
});
