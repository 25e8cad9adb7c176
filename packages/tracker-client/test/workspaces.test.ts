import { afterEach, describe, expect, it, vi } from "vitest";
import { createTrackerClient, MULTICA_PUBLIC_API_URL } from "../src/index.js";
import { clientFor, rejectionOf, startTracker } from "./tracker.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("workspaces", () => {
  it("lists the workspaces the token's user belongs to, oldest first, in camelCase", async () => {
    await using tracker = await startTracker();
    const other = tracker.state.addUser();
    tracker.state.addWorkspace({ name: "Someone else's", members: [other.id] });
    const second = tracker.state.addWorkspace({
      name: "Side project",
      slug: "side",
      members: [tracker.user.id],
      created_at: "2099-01-01T00:00:00Z",
    });
    const { client } = clientFor(tracker.fake, tracker.token);

    const workspaces = await client.listWorkspaces();

    expect(workspaces.map((workspace) => workspace.id)).toEqual([tracker.workspace.id, second.id]);
    expect(workspaces[0]).toMatchObject({ name: "Ringback", slug: "ringback", issuePrefix: "RING" });
    expect(workspaces[0]?.createdAt).toBe(tracker.workspace.created_at);
  });

  it("reads one workspace, falling back to the legacy prefix when none is stored", async () => {
    await using tracker = await startTracker();
    const legacy = tracker.state.addWorkspace({
      name: "Acme Corp",
      issue_prefix: "",
      members: [tracker.user.id],
    });
    const { client } = clientFor(tracker.fake, tracker.token);

    expect(await client.getWorkspace({ workspaceId: tracker.workspace.id })).toMatchObject({
      id: tracker.workspace.id,
    });
    expect((await client.getWorkspace({ workspaceId: legacy.id })).issuePrefix).toBe("ACM");
  });

  it("answers workspace_not_found for a workspace the user is not in, and for a malformed id", async () => {
    await using tracker = await startTracker();
    const stranger = tracker.state.addWorkspace({ name: "Elsewhere" });
    const { client } = clientFor(tracker.fake, tracker.token);

    expect(await rejectionOf(client.getWorkspace({ workspaceId: stranger.id }))).toMatchObject({
      code: "workspace_not_found",
      trackerStatus: 404,
      message: "workspace not found",
    });
    expect(await rejectionOf(client.getWorkspace({ workspaceId: "not-a-uuid" }))).toMatchObject({
      code: "workspace_not_found",
      trackerStatus: 400,
    });
  });
});

describe("base address and headers", () => {
  it("uses DAEMON_TRACKER_API_URL when no baseUrl is given", async () => {
    await using tracker = await startTracker();
    vi.stubEnv("DAEMON_TRACKER_API_URL", `${tracker.fake.url}/`);
    const client = createTrackerClient({ token: tracker.token, log: () => {} });

    expect(client.baseUrl).toBe(tracker.fake.url);
    expect(await client.listWorkspaces()).toHaveLength(1);
  });

  it("prefers baseUrl over the environment, and defaults to Multica's public API", () => {
    vi.stubEnv("DAEMON_TRACKER_API_URL", "http://127.0.0.1:9");
    expect(createTrackerClient({ token: "mul_x", baseUrl: "http://127.0.0.1:8" }).baseUrl).toBe(
      "http://127.0.0.1:8",
    );
    vi.stubEnv("DAEMON_TRACKER_API_URL", "");
    expect(createTrackerClient({ token: "mul_x" }).baseUrl).toBe(MULTICA_PUBLIC_API_URL);
    expect(MULTICA_PUBLIC_API_URL).toBe("https://api.multica.ai");
  });

  it("sends the token as a Bearer, the workspace as X-Workspace-ID, and never the agent headers", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);

    await client.listWorkspaces();
    await client.listProjects({ workspaceId: tracker.workspace.id });
    await client.postComment({
      workspaceId: tracker.workspace.id,
      issueId: tracker.issue.id,
      content: "/note hi",
    });

    expect(tracker.fake.requests.entries).toHaveLength(3);
    for (const request of tracker.fake.requests.entries) {
      expect(request.headers.authorization).toBe(`Bearer ${tracker.token}`);
      expect(request.headers).not.toHaveProperty("x-agent-id");
      expect(request.headers).not.toHaveProperty("x-task-id");
      expect(request.headers).not.toHaveProperty("x-actor-source");
    }
    const [listWorkspaces, listProjects, postComment] = tracker.fake.requests.entries;
    expect(listWorkspaces?.headers).not.toHaveProperty("x-workspace-id");
    expect(listProjects?.headers["x-workspace-id"]).toBe(tracker.workspace.id);
    expect(postComment?.headers["x-workspace-id"]).toBe(tracker.workspace.id);
  });

  it("refuses to start without a token", () => {
    expect(() => createTrackerClient({ token: "" })).toThrow(
      expect.objectContaining({ code: "invalid_tracker_token" }),
    );
  });
});
