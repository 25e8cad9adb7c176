import { readFile, rm, stat } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { secretHint } from "@ringback/protocol";
import { eventually, listenOnLoopback } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_FILE } from "../src/runtime/files/config-file.js";
import { startTrackerHarness, type TrackerHarness } from "./tracker-harness.js";

let harness: TrackerHarness;

beforeEach(async () => {
  harness = await startTrackerHarness();
});

afterEach(async () => {
  await harness.close();
});

async function daemonJson(): Promise<{ tracker?: { token?: string; workspaces?: string[] } }> {
  return JSON.parse(await readFile(join(harness.dataDir, CONFIG_FILE), "utf8"));
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe("GET /tracker/settings", () => {
  it("is empty on a first install: no settings, no connections", async () => {
    expect(await harness.call("/tracker/settings")).toEqual({ settings: null, status: { workspaces: [] } });
  });

  it("returns only the watched workspaces and a token hint, with each workspace's connection", async () => {
    await harness.configure();
    await eventually(async () => {
      const { status } = await harness.call("/tracker/settings");
      return status.workspaces[0]?.state === "connected";
    });
    const body = await harness.call("/tracker/settings");
    expect(body.settings).toEqual({
      workspaces: [harness.workspace.id],
      tokenHint: secretHint(harness.user.token),
    });
    expect(body.status.workspaces).toEqual([
      { workspaceId: harness.workspace.id, state: "connected", error: null, connectedAt: expect.any(String) },
    ]);
    expect(JSON.stringify(body)).not.toContain(harness.user.token);
  });
});

describe("POST /tracker/workspaces", () => {
  it("lists the workspaces a given token can access", async () => {
    const other = harness.state.addWorkspace({ name: "Side project", members: [harness.user.id] });
    harness.state.addWorkspace({ name: "Not mine" });
    const body = await harness.call("/tracker/workspaces", { body: { token: harness.user.token } });
    expect(body.workspaces).toEqual([
      { id: harness.workspace.id, name: "Ringback", slug: "ringback" },
      { id: other.id, name: "Side project", slug: "side-project" },
    ]);
  });

  it("uses the saved token when none is given", async () => {
    await harness.configure();
    const body = await harness.call("/tracker/workspaces", { body: {} });
    expect(body.workspaces.map((workspace: { id: string }) => workspace.id)).toEqual([harness.workspace.id]);
  });

  it("answers 422 tracker_not_configured without a token when none is saved", async () => {
    expect(await errorOf(await harness.request("/tracker/workspaces", { body: {} }))).toMatchObject({
      status: 422,
      code: "tracker_not_configured",
    });
  });

  it("answers 422 invalid_tracker_token for a token the tracker refuses", async () => {
    const response = await harness.request("/tracker/workspaces", {
      body: { token: `mul_${"0".repeat(40)}` },
    });
    expect(await errorOf(response)).toMatchObject({ status: 422, code: "invalid_tracker_token" });
  });
});

describe("PUT /tracker/settings", () => {
  it("validates, saves the token only in daemon.json (mode 600) and connects the watcher", async () => {
    const body = await harness.configure();
    expect(body.settings).toEqual({
      workspaces: [harness.workspace.id],
      tokenHint: secretHint(harness.user.token),
    });
    const saved = await daemonJson();
    expect(saved.tracker).toEqual({
      token: harness.user.token,
      tokenOrigin: new URL(harness.fake.url).origin,
      workspaces: [harness.workspace.id],
    });
    expect((await stat(join(harness.dataDir, CONFIG_FILE))).mode & 0o777).toBe(0o600);
    await eventually(() => harness.fake.realtime.accepted > 0);
    expect(harness.logLines.join("\n")).not.toContain(harness.user.token);
  });

  it("accepts the older {token, workspaceId} form as one workspace", async () => {
    const body = await harness.call("/tracker/settings", {
      method: "PUT",
      body: { token: harness.user.token, workspaceId: harness.workspace.id },
    });
    expect(body.settings.workspaces).toEqual([harness.workspace.id]);
  });

  it("changes only the workspaces when no token is sent, and reconnects", async () => {
    await harness.configure();
    const second = harness.state.addWorkspace({ name: "Second", members: [harness.user.id] });
    const body = await harness.call("/tracker/settings", {
      method: "PUT",
      body: { workspaceIds: [harness.workspace.id, second.id] },
    });
    expect(body.settings).toEqual({
      workspaces: [harness.workspace.id, second.id],
      tokenHint: secretHint(harness.user.token),
    });
    expect((await daemonJson()).tracker?.token).toBe(harness.user.token);
    await eventually(async () => {
      const { status } = await harness.call("/tracker/settings");
      return status.workspaces.every((entry: { state: string }) => entry.state === "connected");
    });
  });

  it("answers 422 invalid_tracker_token and saves nothing when the tracker refuses the token", async () => {
    const response = await harness.request("/tracker/settings", {
      method: "PUT",
      body: { token: `mul_${"1".repeat(40)}`, workspaceIds: [harness.workspace.id] },
    });
    expect(await errorOf(response)).toMatchObject({ status: 422, code: "invalid_tracker_token" });
    expect((await daemonJson()).tracker).toBeUndefined();
  });

  it("answers 422 workspace_not_found and saves nothing for a workspace the token cannot access", async () => {
    const foreign = harness.state.addWorkspace({ name: "Someone else's" });
    const response = await harness.request("/tracker/settings", {
      method: "PUT",
      body: { token: harness.user.token, workspaceIds: [harness.workspace.id, foreign.id] },
    });
    expect(await errorOf(response)).toMatchObject({ status: 422, code: "workspace_not_found" });
    expect((await daemonJson()).tracker).toBeUndefined();
  });

  it("answers 422 tracker_not_configured for workspaces alone when no token is saved", async () => {
    const response = await harness.request("/tracker/settings", {
      method: "PUT",
      body: { workspaceIds: [harness.workspace.id] },
    });
    expect(await errorOf(response)).toMatchObject({ status: 422, code: "tracker_not_configured" });
  });

  it("answers 400 invalid_request for a body of neither form", async () => {
    const response = await harness.request("/tracker/settings", {
      method: "PUT",
      body: { workspaceIds: [] },
    });
    expect(await errorOf(response)).toMatchObject({ status: 400, code: "invalid_request" });
  });
});

describe("DELETE /tracker/settings", () => {
  it("deletes the token and disconnects every watcher", async () => {
    await harness.configure();
    await eventually(() => harness.fake.realtime.connections > 0);
    const body = await harness.call("/tracker/settings", { method: "DELETE" });
    expect(body).toEqual({ settings: null, status: { workspaces: [] } });
    expect((await daemonJson()).tracker).toBeUndefined();
    await eventually(() => harness.fake.realtime.connections === 0);
    expect(await errorOf(await harness.request("/tracker/workspaces", { body: {} }))).toMatchObject({
      code: "tracker_not_configured",
    });
  });
});

describe("a saved token when the tracker's address moves to another origin", () => {
  it("is sent there by nothing (settings, workspaces, watchers) until a token is sent again", async () => {
    await harness.configure();
    const { dataDir } = harness;
    await harness.close({ keepData: true });
    const collected: string[] = [];
    await using collector = await listenOnLoopback(
      createServer((request, response) => {
        collected.push(request.headers.authorization ?? "(none)");
        request.resume();
        response.writeHead(401, { "content-type": "application/json" }).end("{}");
      }),
    );
    try {
      harness = await startTrackerHarness({ dataDir, env: { DAEMON_TRACKER_API_URL: collector.origin } });
      expect((await harness.call("/tracker/settings")).settings).toBeNull();
      expect(harness.logLines.join("\n")).toContain(
        `tracker: not watching: The tracker token saved on this computer`,
      );
      const listed = await errorOf(await harness.request("/tracker/workspaces", { body: {} }));
      expect(listed).toMatchObject({ status: 422, code: "tracker_not_configured" });
      expect(listed.message).toContain(`the tracker is now at ${collector.origin}`);
      const saved = await harness.request("/tracker/settings", {
        method: "PUT",
        body: { workspaceIds: ["any"] },
      });
      expect(await errorOf(saved)).toMatchObject({ status: 422, code: "tracker_not_configured" });
      expect(collected).toEqual([]);
      // The token sent again is the one the new address gets (this one refuses it).
      const resent = await harness.request("/tracker/settings", {
        method: "PUT",
        body: { token: "mul_a-token-for-the-new-tracker", workspaceIds: ["any"] },
      });
      expect(await errorOf(resent)).toMatchObject({ code: "invalid_tracker_token" });
      expect(collected).toEqual(["Bearer mul_a-token-for-the-new-tracker"]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("tracker paths", () => {
  it("answer 405 with Allow for another method", async () => {
    const response = await harness.request("/tracker/settings", { method: "POST", body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, PUT, DELETE");
  });

  it("require the local key like every other path", async () => {
    const response = await harness.request("/tracker/settings", { headers: { authorization: undefined } });
    expect(response.status).toBe(401);
  });
});
