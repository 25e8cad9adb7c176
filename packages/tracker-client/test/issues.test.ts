import { DISPATCH_ISSUES_MAX } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { issueSearchQuery } from "../src/index.js";
import { clientFor, rejectionOf, startTracker, type Tracker } from "./tracker.js";

/** Issues 2..5 of the Launch project (issue 1 is the tracker's seeded one), plus one elsewhere. */
function seedIssues(tracker: Tracker) {
  const { state, workspace, project } = tracker;
  const other = state.addProject(workspace.id, { title: "Other" });
  const login = state.addIssue(workspace.id, {
    title: "Login page redesign",
    project_id: project.id,
    priority: "high",
  });
  const logout = state.addIssue(workspace.id, {
    title: "Logout button",
    project_id: project.id,
    status: "in_review",
  });
  const pricing = state.addIssue(workspace.id, {
    title: "Pricing copy",
    project_id: project.id,
    status: "done",
  });
  const elsewhere = state.addIssue(workspace.id, { title: "Login audit", project_id: other.id });
  return { login, logout, pricing, elsewhere };
}

describe("issues", () => {
  it("reads an issue by id or by identifier, with its project, priority and update time", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;

    const byId = await client.getIssue({ workspaceId, issueId: tracker.issue.id });
    const byIdentifier = await client.getIssue({ workspaceId, issueId: "ring-1" });

    expect(byId).toEqual(byIdentifier);
    expect(byId).toMatchObject({
      identifier: "RING-1",
      number: 1,
      title: "Fix the login redirect",
      status: "todo",
      statusCategory: "todo",
      priority: "none",
      projectId: tracker.project.id,
      assigneeType: "agent",
      assigneeId: tracker.agent.id,
      updatedAt: tracker.issue.updated_at,
    });
  });

  it("answers issue_not_found for an unknown issue", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;

    for (const issueId of [crypto.randomUUID(), "RING-99", "OTHER-1"]) {
      expect(await rejectionOf(client.getIssue({ workspaceId, issueId }))).toMatchObject({
        code: "issue_not_found",
        trackerStatus: 404,
      });
    }
  });

  it("lists a project's issues by latest activity, 50 at most by default", async () => {
    await using tracker = await startTracker();
    const { login, logout, pricing } = seedIssues(tracker);
    tracker.state.addComment(logout.id, { content: "Any news?" });
    const { client } = clientFor(tracker.fake, tracker.token);

    const { issues, total } = await client.listProjectIssues({
      workspaceId: tracker.workspace.id,
      projectId: tracker.project.id,
    });

    expect(issues.map((issue) => issue.id)).toEqual([logout.id, pricing.id, login.id, tracker.issue.id]);
    expect(total).toBe(4);
    const [request] = tracker.fake.requests.matching("GET", "/api/issues");
    expect(request?.query).toMatchObject({ sort: "last_activity", limit: String(DISPATCH_ISSUES_MAX) });
  });

  it("searches by title words, or by number with or without the workspace prefix", async () => {
    await using tracker = await startTracker();
    const { login, logout } = seedIssues(tracker);
    const { client } = clientFor(tracker.fake, tracker.token);
    const search = async (query: string) =>
      (
        await client.listProjectIssues({
          workspaceId: tracker.workspace.id,
          projectId: tracker.project.id,
          query,
        })
      ).issues.map((issue) => issue.id);

    expect(await search("login")).toEqual([login.id, tracker.issue.id]);
    expect(await search("page LOGIN")).toEqual([login.id]);
    expect(await search("3")).toEqual([logout.id]);
    expect(await search("RING-3")).toEqual([logout.id]);
    expect(await search("ring-3")).toEqual([logout.id]);
    expect(await search("#3")).toEqual([logout.id]);
    expect(await search("audit")).toEqual([]);
  });

  it("finds an issue by number when the workspace prefix holds digits", async () => {
    await using tracker = await startTracker();
    tracker.workspace.issue_prefix = "R2D2";
    const { logout } = seedIssues(tracker);
    const { client } = clientFor(tracker.fake, tracker.token);

    const { issues } = await client.listProjectIssues({
      workspaceId: tracker.workspace.id,
      projectId: tracker.project.id,
      query: "r2d2-3",
    });

    expect(issues.map((issue) => [issue.id, issue.identifier])).toEqual([[logout.id, "R2D2-3"]]);
    expect(issueSearchQuery(" R2D2-3 ")).toBe("3");
    expect(issueSearchQuery("RING-3")).toBe("RING-3");
    expect(issueSearchQuery("2024-12")).toBe("2024-12");
  });

  it("keeps only issues in the given statuses", async () => {
    await using tracker = await startTracker();
    const { logout, pricing } = seedIssues(tracker);
    const { client } = clientFor(tracker.fake, tracker.token);

    const { issues } = await client.listProjectIssues({
      workspaceId: tracker.workspace.id,
      projectId: tracker.project.id,
      statuses: ["in_review", "done"],
    });

    expect(issues.map((issue) => issue.id)).toEqual([pricing.id, logout.id]);
  });

  it("answers project_not_found for a malformed project id", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);

    expect(
      await rejectionOf(client.listProjectIssues({ workspaceId: tracker.workspace.id, projectId: "launch" })),
    ).toMatchObject({ code: "project_not_found", trackerStatus: 400 });
  });
});

describe("issue statuses", () => {
  it("lists statuses in board order, custom ones included and archived ones left out", async () => {
    await using tracker = await startTracker();
    const { state, workspace } = tracker;
    state.addStatus(workspace.id, { key: "qa", name: "QA", category: "in_review", position: 2 });
    state.addStatus(workspace.id, { key: "triage", name: "Triage", category: "backlog", position: 1 });
    state.addStatus(workspace.id, {
      key: "old",
      name: "Old",
      category: "todo",
      archived_at: "2026-01-01T00:00:00Z",
    });
    const { client } = clientFor(tracker.fake, tracker.token);

    const statuses = await client.listIssueStatuses({ workspaceId: workspace.id });

    expect(statuses.map((status) => status.key)).toEqual([
      "backlog",
      "triage",
      "todo",
      "in_progress",
      "in_review",
      "qa",
      "done",
      "blocked",
      "cancelled",
    ]);
    expect(statuses.find((status) => status.key === "qa")).toMatchObject({
      name: "QA",
      category: "in_review",
      isSystem: false,
    });
    expect(statuses[0]).toMatchObject({ name: "Backlog", isSystem: true });
  });
});
