import { fileURLToPath } from "node:url";
import { runToEnd, startChild } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

describe("ringback-fake-multica", () => {
  it("starts a demo workspace that answers with the printed token", async () => {
    await using child = startChild({
      args: [bin, "--port", "0", "--seed", "demo"],
      name: "ringback-fake-multica",
    });
    await child.waitFor(() => child.stdout.includes("DAEMON_TRACKER_API_URL"), "the demo's settings");
    const output = child.stdout;
    const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
    const token = /demo token:\s+(mul_[0-9a-f]{40})/.exec(output)?.[1];
    const workspaceId = /demo workspace:\s+(\S+)/.exec(output)?.[1] ?? "";
    const headers = { authorization: `Bearer ${token}`, "x-workspace-id": workspaceId };

    const workspaces = (await (await fetch(`${url}/api/workspaces`, { headers })).json()) as {
      name: string;
    }[];
    const agents = (await (await fetch(`${url}/api/agents`, { headers })).json()) as { name: string }[];
    const { issues } = (await (await fetch(`${url}/api/issues?sort=last_activity`, { headers })).json()) as {
      issues: unknown[];
    };

    expect(workspaces.map((workspace) => workspace.name)).toEqual(["Ringback Demo"]);
    expect(agents.map((agent) => agent.name)).toEqual(["Claude", "Codex"]);
    expect(issues).toHaveLength(3);
  });

  it("refuses an invalid port", async () => {
    expect((await runToEnd({ args: [bin, "--port", "nope"] })).code).toBe(2);
  });
});
