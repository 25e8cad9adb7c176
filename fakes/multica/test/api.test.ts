import { describe, expect, it } from "vitest";
import type { FakeMultica } from "../src/index.js";
import { seeded } from "./seeded.js";

function call(
  fake: FakeMultica,
  path: string,
  init: RequestInit & { token?: string; workspaceId?: string } = {},
) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.workspaceId) headers.set("x-workspace-id", init.workspaceId);
  return fetch(`${fake.url}${path}`, { ...init, headers });
}

describe("the simulated REST API", () => {
  it("answers the tracker's auth errors as plain {error} bodies", async () => {
    await using tracker = await seeded();

    const missing = await call(tracker.fake, "/api/workspaces");
    const invalid = await call(tracker.fake, "/api/workspaces", { token: "mul_nope" });

    expect([missing.status, await missing.json()]).toEqual([401, { error: "missing authorization" }]);
    expect([invalid.status, await invalid.json()]).toEqual([401, { error: "invalid token" }]);
    expect((await call(tracker.fake, "/health")).status).toBe(200);
  });

  it("selects the workspace by slug or id, query or header, and refuses a missing or foreign one", async () => {
    await using tracker = await seeded();
    const { fake, user, workspace } = tracker;
    const stranger = fake.state.addWorkspace({ name: "Elsewhere" });

    expect((await call(fake, "/api/agents", { token: user.token, workspaceId: workspace.id })).status).toBe(
      200,
    );
    expect(
      (await call(fake, `/api/agents?workspace_slug=${workspace.slug}`, { token: user.token })).status,
    ).toBe(200);
    const none = await call(fake, "/api/agents", { token: user.token });
    const foreign = await call(fake, "/api/agents", { token: user.token, workspaceId: stranger.id });
    const malformed = await call(fake, "/api/agents", { token: user.token, workspaceId: "x" });
    expect([none.status, await none.json()]).toEqual([
      400,
      { error: "workspace_id or workspace_slug is required" },
    ]);
    expect([foreign.status, await foreign.json()]).toEqual([404, { error: "workspace not found" }]);
    expect([malformed.status, await malformed.json()]).toEqual([400, { error: "invalid workspace_id" }]);
  });

  it("quick-creates a task without an issue and answers 202 {task_id}", async () => {
    await using tracker = await seeded();
    const { fake, user, workspace, agent } = tracker;

    const response = await call(fake, "/api/issues/quick-create", {
      method: "POST",
      token: user.token,
      workspaceId: workspace.id,
      body: JSON.stringify({ prompt: "Add dark mode", agent_id: agent.id }),
    });
    const body = (await response.json()) as { task_id: string };

    expect(response.status).toBe(202);
    expect(fake.state.tasks.get(body.task_id)).toMatchObject({
      kind: "quick_create",
      status: "queued",
      issue_id: "",
    });
  });

  it("refuses quick-create for an agent whose runtime is offline with 422 agent_unavailable", async () => {
    await using tracker = await seeded();
    const { fake, user, workspace, agent } = tracker;
    const runtime = fake.state.runtimes.get(agent.runtime_id);
    if (runtime) runtime.status = "offline";

    const response = await call(fake, "/api/issues/quick-create", {
      method: "POST",
      token: user.token,
      workspaceId: workspace.id,
      body: JSON.stringify({ prompt: "Go", agent_id: agent.id }),
    });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      code: "agent_unavailable",
      reason: "agent runtime is offline",
      reason_code: "runtime_offline",
    });
  });

  it("logs a status change in the issue's timeline, a second after the update when asked", async () => {
    await using tracker = await seeded();
    const { fake, user, workspace, agent } = tracker;
    const issue = fake.state.addIssue(workspace.id, { title: "Deploy", status: "in_progress" });

    fake.state.changeIssueStatus(
      issue.id,
      "blocked",
      { type: "agent", id: agent.id },
      { loggedAfterMs: 1_000 },
    );
    const response = await call(fake, `/api/issues/${issue.id}/timeline`, {
      token: user.token,
      workspaceId: workspace.id,
    });

    const entries = (await response.json()) as { action: string; created_at: string }[];
    expect(entries.map(({ action }) => action)).toEqual(["status_changed"]);
    expect(Date.parse(entries[0]?.created_at ?? "") - Date.parse(issue.updated_at)).toBe(1_000);
  });

  it("stores an upload without a workspace for the user only, with no attachment row", async () => {
    await using tracker = await seeded();
    const form = new FormData();
    form.append("file", new File(["hello"], "hello.txt", { type: "text/plain" }));

    const response = await call(tracker.fake, "/api/upload-file", {
      method: "POST",
      token: tracker.user.token,
      body: form,
    });
    const body = (await response.json()) as Record<string, unknown>;

    expect(response.status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["filename", "id", "url"]);
    expect(tracker.fake.state.attachments.size).toBe(0);
    expect(tracker.fake.state.files.get(String(body.id))?.filename).toBe("hello.txt");
  });
});

describe("faults and the request log", () => {
  it("answer the next N matching requests with the fault, then normally", async () => {
    await using tracker = await seeded();
    const { fake, user } = tracker;
    fake.faults.rateLimit("/api/workspaces", { times: 2, retryAfterSeconds: 3 });
    fake.faults.serverError(/^\/api\/me$/, { status: 502 });

    const statuses: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await call(fake, "/api/workspaces", { token: user.token });
      statuses.push(response.status);
      if (response.status === 429) expect(response.headers.get("retry-after")).toBe("3");
    }
    const me = await call(fake, "/api/me", { token: user.token });

    expect(statuses).toEqual([429, 429, 200]);
    expect(me.status).toBe(502);
    expect(fake.faults.pending).toBe(0);
    expect(fake.requests.count("GET", "/api/workspaces")).toBe(3);
    expect(fake.requests.entries[0]?.headers.authorization).toBe(`Bearer ${user.token}`);
  });

  it("reset the connection, or answer late, only for the method asked", async () => {
    await using tracker = await seeded();
    const { fake, user } = tracker;
    fake.faults.reset("/api/workspaces", { method: "GET" });
    fake.faults.slow("/api/me", 20);

    await expect(call(fake, "/api/workspaces", { token: user.token })).rejects.toThrow();
    expect((await call(fake, "/api/workspaces", { token: user.token })).status).toBe(200);
    expect((await call(fake, "/api/me", { token: user.token })).status).toBe(200);
    expect(fake.faults.pending).toBe(0);
  });

  it("hold the answers of matching requests until released", async () => {
    await using tracker = await seeded();
    const { fake, user } = tracker;
    const held = fake.faults.hold("/api/me", { times: 2 });
    let answered = 0;
    const calls = [0, 1].map(() =>
      call(fake, "/api/me", { token: user.token }).finally(() => (answered += 1)),
    );
    await expect.poll(() => fake.requests.count("GET", "/api/me")).toBe(2);
    // Both arrived; the server answers neither before the release.
    expect(answered).toBe(0);
    held.release();
    expect((await Promise.all(calls)).map((response) => response.status)).toEqual([200, 200]);
    expect((await call(fake, "/api/me", { token: user.token })).status).toBe(200);
  });
});
