import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

describe("ringback-fake-multica", () => {
  it("starts a demo workspace that answers with the printed token", async () => {
    const child = spawn(process.execPath, [bin, "--port", "0", "--seed", "demo"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let output = "";
      child.stdout.setEncoding("utf8");
      await new Promise<void>((resolve, reject) => {
        child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
        child.stdout.on("data", (chunk: string) => {
          output += chunk;
          if (output.includes("DAEMON_TRACKER_API_URL")) resolve();
        });
      });
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      const token = /demo token:\s+(mul_[0-9a-f]{40})/.exec(output)?.[1];
      const workspaceId = /demo workspace:\s+(\S+)/.exec(output)?.[1] ?? "";
      const headers = { authorization: `Bearer ${token}`, "x-workspace-id": workspaceId };

      const workspaces = (await (await fetch(`${url}/api/workspaces`, { headers })).json()) as {
        name: string;
      }[];
      const agents = (await (await fetch(`${url}/api/agents`, { headers })).json()) as { name: string }[];
      const { issues } = (await (
        await fetch(`${url}/api/issues?sort=last_activity`, { headers })
      ).json()) as {
        issues: unknown[];
      };

      expect(workspaces.map((workspace) => workspace.name)).toEqual(["Ringback Demo"]);
      expect(agents.map((agent) => agent.name)).toEqual(["Claude", "Codex"]);
      expect(issues).toHaveLength(3);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  it("refuses an invalid port", async () => {
    const child = spawn(process.execPath, [bin, "--port", "nope"], { stdio: ["ignore", "ignore", "pipe"] });
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
  });
});
