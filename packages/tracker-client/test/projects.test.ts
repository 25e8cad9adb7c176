import { describe, expect, it } from "vitest";
import { isProjectOpen } from "../src/index.js";
import { clientFor, rejectionOf, startTracker } from "./tracker.js";

describe("projects", () => {
  it("lists every project newest first, and the open ones without finished or cancelled projects", async () => {
    await using tracker = await startTracker();
    const { state, workspace } = tracker;
    const planned = state.addProject(workspace.id, { title: "Planned", status: "planned" });
    const paused = state.addProject(workspace.id, { title: "Paused", status: "paused" });
    const done = state.addProject(workspace.id, { title: "Done", status: "completed" });
    const dropped = state.addProject(workspace.id, { title: "Dropped", status: "cancelled" });
    const { client } = clientFor(tracker.fake, tracker.token);

    const all = await client.listProjects({ workspaceId: workspace.id });
    const open = await client.listOpenProjects({ workspaceId: workspace.id });

    expect(all.map((project) => project.id)).toEqual([
      dropped.id,
      done.id,
      paused.id,
      planned.id,
      tracker.project.id,
    ]);
    expect(open.map((project) => project.title)).toEqual(["Paused", "Planned", "Launch"]);
    expect(all.filter(isProjectOpen)).toEqual(open);
  });

  it("maps a project's fields and counts", async () => {
    await using tracker = await startTracker();
    tracker.state.addIssue(tracker.workspace.id, {
      title: "Shipped",
      project_id: tracker.project.id,
      status: "done",
    });
    const { client } = clientFor(tracker.fake, tracker.token);

    const project = await client.getProject({
      workspaceId: tracker.workspace.id,
      projectId: tracker.project.id,
    });

    expect(project).toMatchObject({
      id: tracker.project.id,
      workspaceId: tracker.workspace.id,
      title: "Launch",
      status: "in_progress",
      priority: "none",
      issueCount: 2,
      doneCount: 1,
    });
  });

  it("answers project_not_found for an unknown or malformed project id", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;

    expect(
      await rejectionOf(client.getProject({ workspaceId, projectId: crypto.randomUUID() })),
    ).toMatchObject({
      code: "project_not_found",
      status: 422,
      trackerStatus: 404,
      message: "project not found",
    });
    expect(await rejectionOf(client.getProject({ workspaceId, projectId: "nope" }))).toMatchObject({
      code: "project_not_found",
      trackerStatus: 400,
    });
  });
});
