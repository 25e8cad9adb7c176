import { parseKey, taskIdDigest } from "@ringback/e2e-crypto";
import { eventually, type ScriptedRelay, startScriptedRelay } from "@ringback/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { duplicateRule } from "./helpers/duplicate-rule.js";
import { startTrackerHarness, type TrackerHarness } from "./tracker-harness.js";

let relay: ScriptedRelay;
const daemons: TrackerHarness[] = [];

afterEach(async () => {
  for (const daemon of daemons.splice(0).reverse()) await daemon.close();
  await relay.close();
});

describe("two computers watching one workspace", () => {
  it("ring once: one report reaches the relay as new, the other daemon takes 409 duplicate_task as done; the relay sees the task only as its digest under the account's key", async () => {
    relay = await startScriptedRelay(duplicateRule());
    const env = { RINGBACK_SERVER_URL: relay.url };
    const first = await startTrackerHarness({ env });
    daemons.push(first);
    const second = await startTrackerHarness({ env, sharedWith: first });
    daemons.push(second);
    expect(second.dataDir).not.toBe(first.dataDir);
    // Two computers of one account: the second joined with the account's key.
    const { key } = await first.call("/e2e/key");
    await second.call("/e2e/key", { method: "PUT", body: { key } });
    await first.configure();
    await second.configure();
    await eventually(() => first.fake.realtime.connections === 2);

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
    await eventually(() => isSettled(first) && isSettled(second));

    expect(relay.posts).toHaveLength(2);
    const digest = await taskIdDigest(parseKey(key), task.id);
    expect(relay.posts.map(({ body }) => body.taskId)).toEqual([digest, digest]);
    expect(JSON.stringify(relay.posts)).not.toContain(task.id);
    expect(new Set(relay.posts.map(({ body }) => body.eventId)).size).toBe(1);
    expect(relay.posts.map(({ answeredWith }) => answeredWith).sort()).toEqual([202, 409]);
    const outcomes = [first, second].map((daemon) => daemon.outbox.finishedEntries()[0]);
    expect(outcomes.map((entry) => entry?.state)).toEqual(["sent", "sent"]);
    expect(outcomes.map((entry) => entry?.reason).sort()).toEqual(["duplicate_task", null]);
  });
});
