import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { clientFor, rejectionOf, startTracker } from "./tracker.js";

describe("the token", () => {
  it("never appears in a log line or an error, whatever fails", async () => {
    await using tracker = await startTracker();
    const { token } = tracker;
    const { faults } = tracker.fake;
    // A tracker that echoes the token back in its message.
    faults.add({ path: "/api/agents" }, { kind: "status", status: 400, message: `bad token ${token}` });
    faults.add({ path: "/api/agents" }, { kind: "status", status: 503, message: `down for ${token}` }, 4);
    faults.reset("/api/runtimes", { times: 4 });
    faults.serverError("/api/issues/quick-create");
    const { client, logs } = clientFor(tracker.fake, token);
    const workspaceId = tracker.workspace.id;

    const errors = [
      await rejectionOf(client.listAgents({ workspaceId })),
      await rejectionOf(client.listAgents({ workspaceId })),
      await rejectionOf(client.listRuntimes({ workspaceId })),
      await rejectionOf(client.quickCreateIssue({ workspaceId, prompt: "Go", agentId: tracker.agent.id })),
      await rejectionOf(clientFor(tracker.fake, otherToken(token)).client.listWorkspaces()),
    ];

    expect(errors.map((error) => error.code)).toEqual([
      "invalid_request",
      "tracker_unavailable",
      "tracker_unavailable",
      "tracker_unavailable",
      "invalid_tracker_token",
    ]);
    expect(errors[0]?.message).toBe("bad token [redacted]");
    expect(logs.length).toBeGreaterThan(4);
    for (const line of logs) expect(line).not.toContain(token);
    for (const error of errors) {
      expect(inspect(error, { depth: 10 })).not.toContain(token);
      expect(JSON.stringify(error)).not.toContain(token);
    }
  });

  it("is sent to the realtime connection in the first frame, never in its address or headers", async () => {
    await using tracker = await startTracker();
    const { client, logs } = clientFor(tracker.fake, tracker.token, { sleepMs: 5 });
    const watcher = client.watchWorkspace({ workspaceId: tracker.workspace.id, onTaskFinished: () => {} });
    await expect.poll(() => watcher.status.state).toBe("connected");
    tracker.fake.realtime.dropAll();
    await expect.poll(() => tracker.fake.realtime.accepted).toBe(2);
    await watcher.close();

    const upgrades = tracker.fake.requests.matching("GET", "/ws");
    expect(upgrades).toHaveLength(2);
    for (const upgrade of upgrades) {
      expect(JSON.stringify(upgrade)).not.toContain(tracker.token);
      expect(upgrade.query).toEqual({ workspace_id: tracker.workspace.id });
    }
    for (const line of logs) expect(line).not.toContain(tracker.token);
  });
});

/** A token that differs from `token` in its last character (a random token may already end in "0"). */
function otherToken(token: string): string {
  return `${token.slice(0, -1)}${token.endsWith("0") ? "1" : "0"}`;
}
