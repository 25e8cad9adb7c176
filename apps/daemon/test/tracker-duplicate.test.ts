import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DaemonTrackerReportPost, errorBody } from "@ringback/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { startTrackerHarness, type TrackerHarness, until } from "./tracker-harness.js";

/**
 * A relay stand-in with the relay's duplicate rule: the first post of a tracker task is new (202), every
 * later post of the same task id is `409 duplicate_task`.
 */
async function startDuplicateRuleRelay() {
  const posts: { post: DaemonTrackerReportPost; status: number }[] = [];
  const seenTasks = new Set<string>();
  const server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      text += chunk;
    });
    request.on("end", () => {
      const post = DaemonTrackerReportPost.parse(JSON.parse(text));
      const isNew = request.url === "/v1/daemon/tracker-reports" && !seenTasks.has(post.taskId);
      seenTasks.add(post.taskId);
      const status = isNew ? 202 : 409;
      posts.push({ post, status });
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(isNew ? { ok: true } : errorBody("duplicate_task")));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let relay: Awaited<ReturnType<typeof startDuplicateRuleRelay>>;
const daemons: TrackerHarness[] = [];

afterEach(async () => {
  for (const daemon of daemons.splice(0).reverse()) await daemon.close();
  await relay.close();
});

describe("two computers watching one workspace", () => {
  it("ring once: one report reaches the relay as new, the other daemon takes 409 duplicate_task as done", async () => {
    relay = await startDuplicateRuleRelay();
    const env = { RINGBACK_SERVER_URL: relay.url };
    const first = await startTrackerHarness({ env });
    daemons.push(first);
    const second = await startTrackerHarness({ env, sharedWith: first });
    daemons.push(second);
    expect(second.dataDir).not.toBe(first.dataDir);
    await first.configure();
    await second.configure();
    await until(() => first.fake.realtime.connections === 2);

    const { state, workspace, agent } = first;
    const issue = state.addIssue(workspace.id, {
      title: "Shared",
      assignee_type: "agent",
      assignee_id: agent.id,
    });
    const task = state.addTask({ agent_id: agent.id, issue_id: issue.id, status: "running" });
    state.finishTask(task.id, { report: "Done on the shared workspace." });

    const isSettled = (daemon: TrackerHarness) =>
      daemon.outbox.entries().length === 0 && daemon.outbox.finishedEntries().length === 1;
    await until(() => isSettled(first) && isSettled(second));

    expect(relay.posts).toHaveLength(2);
    expect(relay.posts.map(({ post }) => post.taskId)).toEqual([task.id, task.id]);
    expect(new Set(relay.posts.map(({ post }) => post.eventId)).size).toBe(1);
    expect(relay.posts.map(({ status }) => status).sort()).toEqual([202, 409]);
    const outcomes = [first, second].map((daemon) => daemon.outbox.finishedEntries()[0]);
    expect(outcomes.map((entry) => entry?.state)).toEqual(["sent", "sent"]);
    expect(outcomes.map((entry) => entry?.reason).sort()).toEqual(["duplicate_task", null]);
  });
});
