import { isRingbackError } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { createTrackerClient, isTrackerError, TrackerError } from "../src/index.js";
import { clientFor, rejectionOf, startTracker } from "./tracker.js";

describe("tracker errors", () => {
  it("map a rejected token to invalid_tracker_token with the tracker's message", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, `mul_${"0".repeat(40)}`);

    const error = await rejectionOf(client.listWorkspaces());

    expect(error).toBeInstanceOf(TrackerError);
    expect(error).toMatchObject({
      code: "invalid_tracker_token",
      status: 422,
      trackerStatus: 401,
      message: "invalid token",
    });
  });

  it("refuse at once a token with characters no token has, without asking the tracker", () => {
    for (const token of ["mul_abc def", "mul_ab\ncd", "mul_ünïcode", "mul_\u0000"]) {
      expect(() => createTrackerClient({ token, baseUrl: "http://127.0.0.1:9" })).toThrow(
        expect.objectContaining({ code: "invalid_tracker_token", status: 422 }),
      );
    }
  });

  it("map an unknown workspace on any workspace-scoped call to workspace_not_found", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);

    expect(await rejectionOf(client.listProjects({ workspaceId: crypto.randomUUID() }))).toMatchObject({
      code: "workspace_not_found",
      trackerStatus: 404,
    });
    expect(
      await rejectionOf(client.getIssue({ workspaceId: crypto.randomUUID(), issueId: tracker.issue.id })),
    ).toMatchObject({
      code: "workspace_not_found",
    });
    expect(await rejectionOf(client.listAgents({ workspaceId: "ringback" }))).toMatchObject({
      code: "workspace_not_found",
      trackerStatus: 400,
      message: "invalid workspace_id",
    });
  });

  it("map a 5xx that outlasts the retries to tracker_unavailable with the tracker's status", async () => {
    await using tracker = await startTracker();
    tracker.fake.faults.serverError("/api/workspaces", { times: 4, status: 500 });
    const { client } = clientFor(tracker.fake, tracker.token);

    const error = await rejectionOf(client.listWorkspaces());

    expect(error).toMatchObject({ code: "tracker_unavailable", status: 502, trackerStatus: 500 });
    expect(error.message).toContain("internal server error");
  });

  it("map an answer of an unexpected shape to tracker_unavailable", async () => {
    const client = createTrackerClient({
      token: "mul_x",
      baseUrl: "http://127.0.0.1:9",
      log: () => {},
      fetch: async () => new Response(JSON.stringify({ workspaces: "nope" }), { status: 200 }),
    });

    expect(await rejectionOf(client.listWorkspaces())).toMatchObject({
      code: "tracker_unavailable",
      trackerStatus: 200,
    });
  });

  it("are Ringback errors that render the error body", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);

    const error = await rejectionOf(
      client.getIssue({ workspaceId: tracker.workspace.id, issueId: "RING-404" }),
    );

    expect(isRingbackError(error)).toBe(true);
    expect(isTrackerError(error)).toBe(true);
    expect(isTrackerError(new Error("x"))).toBe(false);
    expect((error as unknown as TrackerError).toBody()).toEqual({
      error: { code: "issue_not_found", message: "issue not found" },
    });
  });
});
