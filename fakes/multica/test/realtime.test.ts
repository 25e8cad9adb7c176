import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { FakeMultica } from "../src/index.js";
import { seeded } from "./seeded.js";

/** The seeded tracker with an issue assigned to its agent. */
async function seededWithIssue() {
  const tracker = await seeded();
  const issue = tracker.fake.state.addIssue(tracker.workspace.id, {
    title: "Fix it",
    assignee_type: "agent",
    assignee_id: tracker.agent.id,
  });
  return { ...tracker, issue };
}

/** A raw realtime connection that collects every frame. */
async function connect(fake: FakeMultica, query: string) {
  const socket = new WebSocket(`${fake.url.replace("http", "ws")}/ws?${query}`);
  const frames: Record<string, unknown>[] = [];
  socket.on("message", (data) => frames.push(JSON.parse(data.toString())));
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  return { socket, frames, closed, send: (frame: unknown) => socket.send(JSON.stringify(frame)) };
}

describe("the simulated realtime connection", () => {
  it("acknowledges a token in the first frame, then broadcasts the workspace's task events", async () => {
    await using tracker = await seededWithIssue();
    const { fake, user, workspace, agent, issue } = tracker;
    const connection = await connect(fake, `workspace_id=${workspace.id}`);

    connection.send({ type: "auth", payload: { token: user.token } });
    await expect.poll(() => connection.frames).toEqual([{ type: "auth_ack" }]);
    const task = fake.state.addTask({ agent_id: agent.id, issue_id: issue.id });
    fake.state.finishTask(task.id, { report: "Fixed." });
    connection.send({ type: "ping" });

    await expect.poll(() => connection.frames.length).toBe(4);
    expect(connection.frames[1]).toMatchObject({
      type: "comment:created",
      payload: { comment: { source_task_id: task.id, author_type: "agent", content: "Fixed." } },
    });
    expect(connection.frames[2]).toEqual({
      type: "task:completed",
      payload: { task_id: task.id, agent_id: agent.id, issue_id: issue.id, status: "completed" },
      actor_id: "",
      actor_type: "system",
    });
    expect(connection.frames[3]).toEqual({ type: "pong" });
    connection.socket.close();
  });

  it("announces a completed quick-create task with an empty issue id, then links it", async () => {
    await using tracker = await seededWithIssue();
    const { fake, user, workspace, agent } = tracker;
    const connection = await connect(fake, `workspace_slug=${workspace.slug}`);
    connection.send({ type: "auth", payload: { token: user.token } });
    await expect.poll(() => connection.frames).toHaveLength(1);
    const task = fake.state.addTask({ agent_id: agent.id, kind: "quick_create", status: "queued" });

    const { issue, followUp } = fake.state.completeQuickCreate(task.id, { title: "Dark mode" });

    await expect
      .poll(() => connection.frames.map((frame) => frame.type))
      .toEqual(["auth_ack", "issue:created", "task:completed", "task:queued"]);
    expect(connection.frames[2]).toMatchObject({ payload: { task_id: task.id, issue_id: "" } });
    expect(connection.frames[3]).toMatchObject({ payload: { task_id: followUp?.id, issue_id: issue.id } });
    expect(fake.state.tasks.get(task.id)?.issue_id).toBe(issue.id);
    connection.socket.close();
  });

  it("refuses a connection whose first frame is not auth, a bad token, or a non-member", async () => {
    await using tracker = await seededWithIssue();
    const { fake, workspace } = tracker;
    const outsider = fake.state.addUser();
    const cases: [unknown, string][] = [
      [{ type: "ping" }, "expected auth message as first frame"],
      [{ type: "auth", payload: { token: "mat_task_token" } }, "invalid token"],
      [{ type: "auth", payload: { token: outsider.token } }, "not a member of this workspace"],
    ];

    for (const [frame, error] of cases) {
      const connection = await connect(fake, `workspace_id=${workspace.id}`);
      connection.send(frame);
      await connection.closed;
      expect(connection.frames).toEqual([{ error }]);
    }
    expect(fake.realtime.accepted).toBe(0);
  });

  it("refuses the upgrade without a workspace", async () => {
    await using tracker = await seededWithIssue();

    await expect(connect(tracker.fake, "")).rejects.toThrow(/400/);
  });
});
