import { DISPATCH_ISSUES_MAX } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTrackerHarness, type TrackerHarness } from "./tracker-harness.js";

let harness: TrackerHarness;

beforeEach(async () => {
  harness = await startTrackerHarness();
});

afterEach(async () => {
  await harness.close();
});

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe("GET /tracker/dispatch/options", () => {
  it("lists the first watched workspace's unfinished, uncancelled projects and its agents with online", async () => {
    await harness.configure();
    const { state, workspace } = harness;
    state.addProject(workspace.id, { title: "Done", status: "completed" });
    state.addProject(workspace.id, { title: "Dropped", status: "cancelled" });
    const paused = state.addProject(workspace.id, { title: "Paused", status: "paused" });
    state.addAgent(workspace.id, { name: "Unbound" });
    const body = await harness.call("/tracker/dispatch/options");
    expect(body.workspaceId).toBe(workspace.id);
    expect(body.projects).toEqual(
      expect.arrayContaining([
        { id: harness.project.id, name: "Website" },
        { id: paused.id, name: "Paused" },
      ]),
    );
    expect(body.projects).toHaveLength(2);
    expect(body.agents).toEqual([
      { id: harness.agent.id, name: "Claude", online: true },
      { id: harness.offlineAgent.id, name: "Codex", online: false },
      { id: expect.any(String), name: "Unbound", online: false },
    ]);
  });

  it("reads another watched workspace with POST {workspaceId}, and refuses one that is not watched", async () => {
    const second = harness.state.addWorkspace({ name: "Second", members: [harness.user.id] });
    const secondProject = harness.state.addProject(second.id, { title: "Second site" });
    const unwatched = harness.state.addWorkspace({ name: "Unwatched", members: [harness.user.id] });
    await harness.configure([harness.workspace.id, second.id]);
    const body = await harness.call("/tracker/dispatch/options", { body: { workspaceId: second.id } });
    expect(body).toEqual({
      workspaceId: second.id,
      projects: [{ id: secondProject.id, name: "Second site" }],
      agents: [],
    });
    const refused = await harness.request("/tracker/dispatch/options", {
      body: { workspaceId: unwatched.id },
    });
    expect(refused.status).toBe(422);
    expect(await errorCode(refused)).toBe("workspace_not_found");
  });

  it("answers 422 tracker_not_configured without a saved token", async () => {
    const response = await harness.request("/tracker/dispatch/options");
    expect(response.status).toBe(422);
    expect(await errorCode(response)).toBe("tracker_not_configured");
  });
});

describe("POST /tracker/dispatch/issues", () => {
  function seedIssues(count: number) {
    const { state, workspace, project } = harness;
    return Array.from({ length: count }, (_, index) =>
      state.addIssue(workspace.id, {
        title: index % 2 === 0 ? `Login bug ${index}` : `Pricing page ${index}`,
        status: index % 3 === 0 ? "in_review" : "todo",
        project_id: project.id,
        last_activity_at: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
      }),
    );
  }

  it(`lists the project's issues by latest activity, at most ${DISPATCH_ISSUES_MAX}`, async () => {
    await harness.configure();
    const issues = seedIssues(DISPATCH_ISSUES_MAX + 10);
    const body = await harness.call("/tracker/dispatch/issues", { body: { projectId: harness.project.id } });
    expect(body.issues).toHaveLength(DISPATCH_ISSUES_MAX);
    const newest = issues.at(-1)!;
    expect(body.issues[0]).toEqual({
      id: newest.id,
      number: newest.number,
      identifier: `RING-${newest.number}`,
      title: newest.title,
      status: newest.status,
      priority: "none",
      updatedAt: newest.updated_at,
    });
  });

  it("finds issues by title words and by number with or without the workspace prefix", async () => {
    await harness.configure();
    const issues = seedIssues(12);
    const search = async (query: string) =>
      (
        await harness.call("/tracker/dispatch/issues", { body: { projectId: harness.project.id, query } })
      ).issues.map((issue: { id: string }) => issue.id);
    expect(await search("login 10")).toEqual([issues[10]!.id]);
    const third = issues[2]!;
    for (const query of [
      `RING-${third.number}`,
      `ring-${third.number}`,
      `${third.number}`,
      `#${third.number}`,
    ]) {
      expect(await search(query)).toContain(third.id);
    }
  });

  it("keeps only issues in the given statuses", async () => {
    await harness.configure();
    seedIssues(9);
    const body = await harness.call("/tracker/dispatch/issues", {
      body: { projectId: harness.project.id, statuses: ["in_review"] },
    });
    expect(body.issues).toHaveLength(3);
    expect(body.issues.every((issue: { status: string }) => issue.status === "in_review")).toBe(true);
    const none = await harness.call("/tracker/dispatch/issues", {
      body: { projectId: harness.project.id, statuses: [] },
    });
    expect(none.issues).toEqual([]);
  });

  it("answers 422 project_not_found for a project that does not exist", async () => {
    await harness.configure();
    const response = await harness.request("/tracker/dispatch/issues", {
      body: { projectId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(response.status).toBe(422);
    expect(await errorCode(response)).toBe("project_not_found");
  });
});

describe("POST /tracker/dispatch/statuses", () => {
  it("lists statuses in board order, custom ones included, archived ones left out", async () => {
    await harness.configure();
    const { state, workspace } = harness;
    state.addStatus(workspace.id, { key: "qa", name: "QA", category: "in_review", position: 2 });
    state.addStatus(workspace.id, {
      key: "old",
      name: "Old",
      category: "todo",
      position: 3,
      archived_at: new Date().toISOString(),
    });
    const body = await harness.call("/tracker/dispatch/statuses", { body: {} });
    expect(body.statuses).toEqual([
      { key: "backlog", name: "Backlog" },
      { key: "todo", name: "Todo" },
      { key: "in_progress", name: "In Progress" },
      { key: "in_review", name: "In Review" },
      { key: "qa", name: "QA" },
      { key: "done", name: "Done" },
      { key: "blocked", name: "Blocked" },
      { key: "cancelled", name: "Cancelled" },
    ]);
  });
});
