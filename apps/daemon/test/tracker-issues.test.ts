import { ISSUE_REFERENCES_MAX } from "@ringback/protocol";
import { eventually } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TRACKER_READS_IN_FLIGHT } from "../src/runtime/tracker/map-limit.js";
import { startTrackerHarness, type TrackerHarness } from "./tracker-harness.js";

let harness: TrackerHarness;

beforeEach(async () => {
  harness = await startTrackerHarness();
});

afterEach(async () => {
  await harness.close();
});

describe("POST /tracker/issues", () => {
  it("returns each issue's current project, priority and update time, in the order asked", async () => {
    await harness.configure();
    const { state, workspace, project } = harness;
    const urgent = state.addIssue(workspace.id, {
      title: "Outage",
      priority: "urgent",
      project_id: project.id,
    });
    const loose = state.addIssue(workspace.id, { title: "No project", priority: "low" });
    const body = await harness.call("/tracker/issues", {
      body: {
        issues: [
          { workspaceId: workspace.id, issueId: loose.id },
          { workspaceId: workspace.id, issueId: urgent.id },
          { workspaceId: workspace.id, issueId: loose.id },
        ],
      },
    });
    expect(body.issues).toEqual([
      {
        workspaceId: workspace.id,
        issueId: loose.id,
        projectId: null,
        projectName: null,
        priority: "low",
        updatedAt: loose.updated_at,
      },
      {
        workspaceId: workspace.id,
        issueId: urgent.id,
        projectId: project.id,
        projectName: "Website",
        priority: "urgent",
        updatedAt: urgent.updated_at,
      },
    ]);
  });

  it("shows a move to another project and a new priority", async () => {
    await harness.configure();
    const { state, workspace } = harness;
    const issue = state.addIssue(workspace.id, { title: "Move me", priority: "low" });
    const other = state.addProject(workspace.id, { title: "Mobile" });
    issue.project_id = other.id;
    issue.priority = "high";
    const body = await harness.call("/tracker/issues", {
      body: { issues: [{ workspaceId: workspace.id, issueId: issue.id }] },
    });
    expect(body.issues[0]).toMatchObject({ projectId: other.id, projectName: "Mobile", priority: "high" });
  });

  it("leaves out deleted issues and issues of workspaces the token cannot access", async () => {
    await harness.configure();
    const { state, workspace } = harness;
    const kept = state.addIssue(workspace.id, { title: "Kept" });
    const deleted = state.addIssue(workspace.id, { title: "Deleted" });
    state.issues.delete(deleted.id);
    const foreign = state.addWorkspace({ name: "Foreign" });
    const foreignIssue = state.addIssue(foreign.id, { title: "Not yours" });
    const body = await harness.call("/tracker/issues", {
      body: {
        issues: [
          { workspaceId: workspace.id, issueId: deleted.id },
          { workspaceId: foreign.id, issueId: foreignIssue.id },
          { workspaceId: workspace.id, issueId: kept.id },
        ],
      },
    });
    expect(body.issues.map((entry: { issueId: string }) => entry.issueId)).toEqual([kept.id]);
  });

  it(`reads the issues ${TRACKER_READS_IN_FLIGHT} at a time and each project once`, async () => {
    await harness.configure();
    const { state, workspace, project } = harness;
    const issues = Array.from({ length: TRACKER_READS_IN_FLIGHT + 1 }, (_, index) =>
      state.addIssue(workspace.id, { title: `Issue ${index}`, project_id: project.id }),
    );
    const issueReads = () => harness.fake.requests.count("GET", /^\/api\/issues\/[^/]+$/);
    // Nothing is answered until released: however slow the machine, the reads in flight can only be the first ones.
    const held = harness.fake.faults.hold(/^\/api\/issues\//, { times: issues.length });
    const answer = harness.call("/tracker/issues", {
      body: { issues: issues.map((issue) => ({ workspaceId: workspace.id, issueId: issue.id })) },
    });
    await eventually(() => issueReads() >= TRACKER_READS_IN_FLIGHT);
    // The last read waits for a free slot: it starts only once an answer is in.
    expect(issueReads()).toBe(TRACKER_READS_IN_FLIGHT);
    held.release();
    expect((await answer).issues).toHaveLength(issues.length);
    expect(issueReads()).toBe(issues.length);
    expect(harness.fake.requests.count("GET", `/api/projects/${project.id}`)).toBe(1);
  });

  it("answers 502 tracker_unavailable when the tracker fails, rather than an empty list", async () => {
    await harness.configure();
    const issue = harness.state.addIssue(harness.workspace.id, { title: "Any" });
    harness.fake.faults.serverError(`/api/issues/${issue.id}`, { times: 4 });
    const response = await harness.request("/tracker/issues", {
      body: { issues: [{ workspaceId: harness.workspace.id, issueId: issue.id }] },
    });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("tracker_unavailable");
  });

  it("answers 422 tracker_not_configured without a saved token", async () => {
    const response = await harness.request("/tracker/issues", {
      body: { issues: [{ workspaceId: harness.workspace.id, issueId: "x" }] },
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      "tracker_not_configured",
    );
  });

  it(`answers 400 invalid_request for more than ${ISSUE_REFERENCES_MAX} references`, async () => {
    await harness.configure();
    const issues = Array.from({ length: ISSUE_REFERENCES_MAX + 1 }, (_, index) => ({
      workspaceId: harness.workspace.id,
      issueId: `issue-${index}`,
    }));
    const response = await harness.request("/tracker/issues", { body: { issues } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
  });
});
