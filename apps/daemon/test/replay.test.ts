import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { RelayClient, relayDaemonRequest, sealReply } from "@ringback/client";
import type { E2eKey } from "@ringback/e2e-crypto";
import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import type { SettingsRequestPlaintext } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEEN_REQUESTS_FILE } from "../src/runtime/replay-guard.js";
import {
  COMPUTER_ID,
  type DaemonProcess,
  postReport,
  readDaemonKey,
  readLocalKey,
  startDaemonProcess,
  writeRelayLogin,
} from "./helpers/daemon-process.js";
import { type FakeAgent, makeFakeAgent } from "./helpers/fake-agent.js";
import { type HostileRelay, startHostileRelay } from "./helpers/hostile-relay.js";

/**
 * The relay is the party the end-to-end design keeps out. This one passes every sealed message on as a relay does,
 * keeps a copy, and sends the copy to the daemon process again later: a settings change rolled back, a dispatch run
 * twice, a reply that resumes the agent again.
 */
const SESSION_ID = "5f1e-replayed-session";

let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let home: string;
let project: string;
let relay: HostileRelay;
let tracker: FakeMultica;
let agent: FakeAgent;
let daemon: DaemonProcess;
let key: E2eKey;
let localKey: string;
let device: RelayClient;

const seed = { token: "", workspaceId: "", projectId: "", agentId: "" };

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  home = join(directory.path, "home");
  project = join(directory.path, "project");
  await mkdir(home, { mode: 0o700 });
  await mkdir(project);
  await mkdir(join(directory.path, "agent"));
  agent = await makeFakeAgent(join(directory.path, "agent"));
  tracker = await startFakeMultica();
  const user = tracker.state.addUser({ name: "Ada" });
  const workspace = tracker.state.addWorkspace({ name: "Ringback", slug: "ringback", members: [user.id] });
  const runtime = tracker.state.addRuntime(workspace.id, { status: "online" });
  seed.token = user.token;
  seed.workspaceId = workspace.id;
  seed.agentId = tracker.state.addAgent(workspace.id, { name: "Claude", runtime_id: runtime.id }).id;
  seed.projectId = tracker.state.addProject(workspace.id, { title: "Website", status: "in_progress" }).id;
  relay = await startHostileRelay();
  await writeRelayLogin(home, relay.url);
  daemon = await startLinkedDaemon();
  key = await readDaemonKey(home);
  localKey = await readLocalKey(home);
  device = new RelayClient({ serverUrl: relay.url, deviceToken: "phone-token" });
  const saved = await local("PUT", "/tracker/settings", {
    token: seed.token,
    workspaceIds: [seed.workspaceId],
  });
  expect(saved.status).toBe(200);
});

afterAll(async () => {
  await daemon?.stop("SIGKILL");
  await relay?.close();
  await tracker?.close();
  await directory?.remove();
});

let daemonStarts = 0;
async function startLinkedDaemon(): Promise<DaemonProcess> {
  const started = await startDaemonProcess(home, {
    RINGBACK_CLAUDE_BIN: agent.bin,
    DAEMON_TRACKER_API_URL: tracker.url,
  });
  daemonStarts += 1;
  await relay.linked(daemonStarts);
  return started;
}

function local(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${daemon.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A request from the phone (`now` its clock), sealed by the client library, through the relay. */
function ask(request: SettingsRequestPlaintext, now?: () => Date) {
  return relayDaemonRequest(device, key, COMPUTER_ID, request, { now });
}

/** The copy the relay kept of the last settings request it passed on. */
function lastSettingsRequest() {
  const copy = relay.passedOn.findLast((message) => message.type === "settings-request");
  if (!copy) throw new Error("the relay passed on no settings request");
  return copy;
}

async function savedModel(): Promise<string> {
  const body = (await (await local("GET", "/llm/settings")).json()) as { channel: { model: string } };
  return body.channel.model;
}

describe("a relay that replays sealed requests", () => {
  it("cannot roll a setting back by sending an earlier settings request again", async () => {
    const channel = { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-replay-test-1234" };
    expect(
      (await ask({ method: "PUT", path: "/llm/settings", body: { ...channel, model: "old" } })).status,
    ).toBe(200);
    const rollback = lastSettingsRequest();
    expect(
      (await ask({ method: "PUT", path: "/llm/settings", body: { ...channel, model: "new" } })).status,
    ).toBe(200);
    const answer = await relay.send(rollback);
    expect(answer).toMatchObject({ type: "settings-error", error: { code: "replayed_request" } });
    expect(await savedModel()).toBe("new");
  });

  it("cannot make an agent do a dispatched task again", async () => {
    const dispatched = await ask({
      method: "POST",
      path: "/tracker/dispatches",
      body: {
        projectId: seed.projectId,
        agentId: seed.agentId,
        prompt: "Add a dark mode to the settings page.",
      },
    });
    expect(dispatched.status).toBe(200);
    const answer = await relay.send(lastSettingsRequest());
    expect(answer).toMatchObject({ type: "settings-error", error: { code: "replayed_request" } });
    expect(tracker.state.quickCreateRequests.size).toBe(1);
  });

  it("cannot resume the agent again with an old reply, even once the daemon's 1000 last replies no longer name it", async () => {
    const report = await postReport(daemon, localKey, {
      source: "claude-code",
      sessionId: SESSION_ID,
      turnId: "turn-1",
      cwd: project,
      text: "Migrated the orders table. Backfill the old rows now?",
    });
    expect(report.status).toBe(202);
    const eventId = await eventually(() => relay.postedEvents[0], {
      what: "the report's post",
      on: relay.changes,
    });
    const reply = { computerId: COMPUTER_ID, eventId, replyId: "r_original", text: "Yes, backfill them." };
    const original = { type: "reply" as const, eventId, ...(await sealReply(key, reply)) };
    expect(await relay.send(original)).toMatchObject({ status: "delivered" });
    // The user goes on replying to other calls: 1000 replies later the daemon's replies.json no longer names it.
    for (let index = 0; index < 1000; index += 1) {
      const later = {
        computerId: COMPUTER_ID,
        eventId: "evt_unknown",
        replyId: `r_later_${index}`,
        text: "Ok.",
      };
      await relay.send({ type: "reply", eventId: "evt_unknown", ...(await sealReply(key, later)) });
    }
    const replayed = await relay.send(original);
    expect(replayed).toEqual({
      type: "reply-status",
      replyId: "r_original",
      status: "failed",
      plaintextReason: expect.stringContaining("already taken"),
    });
    expect(await agent.runs()).toHaveLength(1);
    // A thousand round trips through the real daemon, each written to disk: minutes on a busy machine, not seconds.
  }, 240_000);

  it("cannot have a request taken that was sealed more than 5 minutes before or after the computer's time", async () => {
    const read = { method: "GET" as const, path: "/llm/settings" };
    for (const offsetMs of [-6 * 60_000, 6 * 60_000]) {
      await expect(ask(read, () => new Date(Date.now() + offsetMs))).rejects.toMatchObject({
        code: "stale_request",
        status: 422,
      });
    }
    expect((await ask(read, () => new Date(Date.now() - 60_000))).status).toBe(200);
  });

  it("cannot replay a request after the daemon restarts (or crashes): what it took is on disk, mode 600", async () => {
    const language = await ask({ method: "PUT", path: "/brief/language", body: { language: "fr-FR" } });
    expect(language.status).toBe(200);
    const copy = lastSettingsRequest();
    await daemon.kill();
    daemon = await startLinkedDaemon();
    expect(await relay.send(copy)).toMatchObject({
      type: "settings-error",
      error: { code: "replayed_request" },
    });
    expect((await stat(join(home, SEEN_REQUESTS_FILE))).mode & 0o777).toBe(0o600);
  });
});
