import { generateKey } from "@ringback/e2e-crypto";
import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type SettingsBackedState,
  settingsBackedDaemon,
  trackerAccount,
} from "../../test/settings-backed-daemon.js";
import { type StandInComputer, startStandInComputer } from "../../test/stand-in-computer.js";
import { NoComputerError } from "../daemon/computer-choice.js";
import { DaemonClient } from "../daemon/daemon-client.js";
import { RelayClient } from "../relay/relay-client.js";
import { TrackerSettingsController } from "./tracker-settings-controller.js";
import { watchedWorkspaceRows } from "./watched-workspaces.js";

const key = generateKey();

describe("Settings › Tracker against the Multica simulator, relayed through a stand-in computer", () => {
  let fake: FakeMultica;
  let computer: StandInComputer;
  let state: SettingsBackedState;
  let token: string;
  let workspaceIds: { ring: string; docs: string };
  let watched: (readonly string[])[];
  let controller: TrackerSettingsController;

  beforeAll(async () => {
    fake = await startFakeMultica();
    ({ token, workspaceIds } = trackerAccount(fake));
    const backed = settingsBackedDaemon({ trackerUrl: fake.url });
    state = backed.state;
    computer = await startStandInComputer(key, backed.daemon);
  });

  afterAll(async () => {
    await computer?.close();
    await fake?.close();
  });

  beforeEach(() => {
    Object.assign(state, { token: null, workspaces: [] });
    computer.relayRefuses(null);
    computer.requests.length = 0;
    watched = [];
    const client = new DaemonClient(
      new RelayClient({ serverUrl: computer.origin, deviceToken: "tok" }),
      key,
      "dev_pc",
    );
    controller = new TrackerSettingsController({
      client: async () => client,
      setWatchedWorkspaces: async (ids) => {
        watched.push(ids);
      },
    });
  });

  it("starts empty on a first install: no token, nothing watched", async () => {
    await controller.load();
    expect(controller.view.saved?.settings).toBeNull();
    expect(controller.view.problem).toBeNull();
    expect(watched).toEqual([[]]);
  });

  it("checks a token, lets the user pick several workspaces, saves, and afterwards knows only the hint", async () => {
    await controller.load();
    await controller.validate(`  ${token}  `);
    expect(controller.view.choice?.workspaces.map((workspace) => workspace.name)).toEqual([
      "Ringback",
      "Docs",
    ]);
    expect(controller.view.choice?.selected).toEqual([]);
    controller.toggle(workspaceIds.docs);
    controller.toggle(workspaceIds.ring);
    await controller.save();

    expect(computer.requests.at(-2)).toEqual({
      method: "PUT",
      path: "/tracker/settings",
      // The tracker's order, not the order they were ticked in.
      body: { token, workspaceIds: [workspaceIds.ring, workspaceIds.docs] },
    });
    expect(controller.view.choice).toBeNull();
    expect(controller.view.notice).toBe("saved");
    expect(controller.view.saved?.settings?.tokenHint).toMatch(/^\*{4}/);
    expect(JSON.stringify(controller.view)).not.toContain(token);
    expect(watched.at(-1)).toEqual([workspaceIds.ring, workspaceIds.docs]);
    expect(watchedWorkspaceRows(controller.view.saved, controller.view.names)).toEqual([
      { id: workspaceIds.ring, name: "Ringback", state: "connected", error: null },
      { id: workspaceIds.docs, name: "Docs", state: "connected", error: null },
    ]);
  });

  it("changes workspaces with the saved token: no token is sent, the watched ones start ticked", async () => {
    Object.assign(state, { token, workspaces: [workspaceIds.ring, workspaceIds.docs] });
    await controller.load();
    expect(controller.view.names).toEqual({ [workspaceIds.ring]: "Ringback", [workspaceIds.docs]: "Docs" });
    await controller.changeWorkspaces();
    expect(computer.requests.at(-1)).toEqual({ method: "POST", path: "/tracker/workspaces", body: {} });
    expect(controller.view.choice?.selected).toEqual([workspaceIds.ring, workspaceIds.docs]);
    controller.toggle(workspaceIds.ring);
    await controller.save();
    expect(computer.requests.find((request) => request.method === "PUT")?.body).toEqual({
      workspaceIds: [workspaceIds.docs],
    });
    expect(state.workspaces).toEqual([workspaceIds.docs]);
    expect(watched.at(-1)).toEqual([workspaceIds.docs]);
  });

  it("says an invalid token is invalid and keeps nothing", async () => {
    await controller.validate("mul_not_a_real_token");
    expect(controller.view.problem?.kind).toBe("invalid-tracker-token");
    expect(controller.view.choice).toBeNull();
    expect(state.token).toBeNull();
  });

  it("asks for a token before asking the computer, and for a workspace before saving", async () => {
    await controller.validate("   ");
    expect(controller.view.problem?.kind).toBe("token-required");
    expect(computer.requests).toHaveLength(0);
    await controller.validate(token);
    await controller.save();
    expect(controller.view.problem?.kind).toBe("no-workspace");
    expect(computer.requests.some((request) => request.method === "PUT")).toBe(false);
  });

  it("reports a workspace the token cannot reach (removed meanwhile) as not found", async () => {
    Object.assign(state, { token, workspaces: [workspaceIds.ring] });
    await controller.load();
    await controller.changeWorkspaces();
    const gone = fake.state.addWorkspace({ name: "Gone", slug: "gone", members: [] });
    const choice = controller.view.choice!;
    // The list the page holds names a workspace the token no longer reaches.
    Object.assign(choice, {
      workspaces: [...choice.workspaces, { id: gone.id, name: "Gone", slug: "gone" }],
      selected: [gone.id],
    });
    await controller.save();
    expect(controller.view.problem?.kind).toBe("workspace-not-found");
    expect(state.workspaces).toEqual([workspaceIds.ring]);
  });

  it("removes the token: the computer stops watching and so does the device", async () => {
    Object.assign(state, { token, workspaces: [workspaceIds.ring] });
    await controller.load();
    await controller.remove();
    expect(state.token).toBeNull();
    expect(controller.view.saved?.settings).toBeNull();
    expect(controller.view.notice).toBe("removed");
    expect(watched.at(-1)).toEqual([]);
  });

  it("says the computer is offline when the relay cannot reach it", async () => {
    computer.relayRefuses("computer_offline");
    await controller.load();
    expect(controller.view.problem?.kind).toBe("computer-offline");
    expect(controller.view.busy).toBeNull();
  });

  it("says no computer has joined when there is none", async () => {
    const alone = new TrackerSettingsController({
      client: () => Promise.reject(new NoComputerError()),
      setWatchedWorkspaces: async () => undefined,
    });
    await alone.load();
    expect(alone.view.problem?.kind).toBe("no-computer");
  });
});
