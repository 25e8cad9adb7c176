import { describe, expect, it } from "vitest";
import { isAgentOnline } from "../src/index.js";
import { clientFor, rejectionOf, startTracker } from "./tracker.js";

describe("agents and runtimes", () => {
  it("derives online from the agent's runtime: bound and online, else offline", async () => {
    await using tracker = await startTracker();
    const { state, workspace } = tracker;
    const unbound = state.addAgent(workspace.id, { name: "Unbound" });
    state.addAgent(workspace.id, {
      name: "Archived",
      runtime_id: tracker.onlineRuntime.id,
      archived_at: "2026-01-01T00:00:00Z",
    });
    const { client } = clientFor(tracker.fake, tracker.token);

    const agents = await client.listAgentsWithOnline({ workspaceId: workspace.id });

    expect(agents.map((agent) => [agent.name, agent.online])).toEqual([
      ["Claude", true],
      ["Codex", false],
      ["Unbound", false],
    ]);
    expect(agents.find((agent) => agent.id === unbound.id)).toMatchObject({
      runtimeId: null,
      runtimeBound: false,
    });
    expect(agents[0]).toMatchObject({
      runtimeId: tracker.onlineRuntime.id,
      runtimeBound: true,
      status: "idle",
    });
  });

  it("sees a runtime going offline on the next read", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;

    tracker.onlineRuntime.status = "offline";
    const [agent] = await client.listAgents({ workspaceId });
    const runtimes = await client.listRuntimes({ workspaceId });

    expect(agent && isAgentOnline(agent, runtimes)).toBe(false);
  });

  it("lists runtimes with their display name, status and CLI version", async () => {
    await using tracker = await startTracker();
    tracker.onlineRuntime.custom_name = "Ada's laptop";
    const { client } = clientFor(tracker.fake, tracker.token);

    const runtimes = await client.listRuntimes({ workspaceId: tracker.workspace.id });

    expect(runtimes).toEqual([
      expect.objectContaining({
        id: tracker.onlineRuntime.id,
        name: "Ada's laptop",
        status: "online",
        cliVersion: "0.5.0",
      }),
      expect.objectContaining({ id: tracker.offlineRuntime.id, name: "desktop", status: "offline" }),
    ]);
  });

  it("reads one agent, and answers agent_not_found for an unknown one", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const workspaceId = tracker.workspace.id;

    expect(await client.getAgent({ workspaceId, agentId: tracker.agent.id })).toMatchObject({
      name: "Claude",
    });
    expect(await rejectionOf(client.getAgent({ workspaceId, agentId: crypto.randomUUID() }))).toMatchObject({
      code: "agent_not_found",
      trackerStatus: 404,
    });
  });
});
