import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { sealReply, sealSettingsRequest } from "@ringback/client";
import { aad, type E2eKey, generateKey, openJson, parseKey } from "@ringback/e2e-crypto";
import {
  CANNOT_DECRYPT_REPLY,
  type DeviceCredentials,
  PairingResult,
  SealedReportPayload,
  type SettingsRequestPlaintext,
  SettingsResultPlaintext,
} from "@ringback/protocol";
import { eventually, freePort, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DaemonProcess,
  daemonEnv,
  readDaemonConfig,
  readLocalKey,
  runCli,
  setLocalPort,
  startDaemonOnItsPort,
} from "./helpers/daemon-process.js";
import { DeviceStream } from "./helpers/device-stream.js";
import { type FakeAgent, makeFakeAgent } from "./helpers/fake-agent.js";
import { runHook } from "./helpers/hook-process.js";
import { redeem, relayCall } from "./helpers/relay-devices.js";
import { type RelayProcess, startRelayProcess } from "./helpers/relay-process.js";

/** A client device as the web app is one: its identity, the key from the pairing link, its SSE stream. */
interface Client {
  credentials: DeviceCredentials;
  key: E2eKey;
  stream: DeviceStream;
}

const SESSION_ID = "0b5e7c3a-claude-session";
// The relay's stream retry hint: long enough that a change made right after a relay restart happens while the
// devices are still away, so they learn it by resuming with Last-Event-ID.
const RELAY_ARGS = ["--open-signup", "--sse-retry-ms", "2500"];

let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let home: string;
let project: string;
let relay: RelayProcess;
let daemon: DaemonProcess;
const daemons: DaemonProcess[] = [];
let agent: FakeAgent;
let computerDeviceId: string;
let phone: Client;
let browser: Client;
const secrets: string[] = [];
let turn = 0;

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  home = join(directory.path, "home");
  project = join(directory.path, "shop-api");
  await mkdir(project);
  await mkdir(join(directory.path, "agent"));
  agent = await makeFakeAgent(join(directory.path, "agent"));
  relay = await startRelayProcess({ dataDir: join(directory.path, "relay"), args: RELAY_ARGS });
  const login = await runCli(["login", "--server", relay.url, "--name", "laptop"], daemonEnv(home));
  expect(login.code).toBe(0);
  await setLocalPort(home, await freePort());
  daemon = await startLinkedDaemon();
  const config = await readDaemonConfig(home);
  computerDeviceId = config.relay?.deviceId ?? "";
  secrets.push(config.relay?.deviceToken ?? "", config.e2e?.key ?? "", await readLocalKey(home));
  phone = await addClient("phone");
  browser = await addClient("browser");
  await Promise.all([phone.stream.waitForSynced(), browser.stream.waitForSynced()]);
});

afterAll(async () => {
  phone?.stream.close();
  browser?.stream.close();
  await daemon?.stop("SIGKILL");
  await relay?.stop();
  await directory?.remove();
});

async function startLinkedDaemon(): Promise<DaemonProcess> {
  const started = await startDaemonOnItsPort(home, { RINGBACK_CLAUDE_BIN: agent.bin });
  daemons.push(started);
  await eventually(() => started.stderr().includes("relay link open"));
  return started;
}

function logOfAllDaemons(): string {
  return daemons.map((started) => started.stderr()).join("\n");
}

/** Pairs a device the way a person does: `ringback pair`, then the link's code and key on the device. */
async function addClient(kind: "phone" | "browser"): Promise<Client> {
  const pair = await runCli(["pair", "--json"], daemonEnv(home));
  const pairing = PairingResult.parse(JSON.parse(pair.stdout));
  const credentials = await redeem(relay.url, pairing.code, kind);
  return {
    credentials,
    key: parseKey(pairing.key),
    stream: new DeviceStream(relay.url, credentials.deviceToken),
  };
}

/** An agent turn ends: the real hook bundle gets Claude Code's Stop payload; resolves with the call's event id. */
async function agentFinishes(text: string): Promise<string> {
  turn += 1;
  const code = await runHook("claude-code", home, {
    session_id: SESSION_ID,
    transcript_path: join(directory.path, "transcript.jsonl"),
    cwd: project,
    prompt_id: `prompt-${turn}`,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: text,
  });
  expect(code).toBe(0);
  const call = await phone.stream.waitFor(
    "call",
    (data) => data.eventId !== undefined && !seenCalls.has(data.eventId),
  );
  seenCalls.add(call.data.eventId);
  return call.data.eventId;
}
const seenCalls = new Set<string>();

async function openCall(client: Client, eventId: string) {
  const call = await client.stream.waitFor("call", (data) => data.eventId === eventId);
  return SealedReportPayload.parse(await openJson(client.key, aad.report(eventId), call.data.sealed));
}

async function sendReply(client: Client, eventId: string, replyId: string, text: string, key = client.key) {
  return relayCall(relay.url, "POST", `/v1/calls/${eventId}/replies`, {
    token: client.credentials.deviceToken,
    body: await sealReply(key, { computerId: computerDeviceId, eventId, replyId, text }),
  });
}

/** A relayed settings request, sealed by the client library for the computer, as the app sends it. */
async function relaySettings(client: Client, request: SettingsRequestPlaintext, key = client.key) {
  const { requestId, sealed } = await sealSettingsRequest(key, computerDeviceId, request);
  const answer = await relayCall(relay.url, "POST", `/v1/devices/${computerDeviceId}/settings`, {
    token: client.credentials.deviceToken,
    body: { requestId, sealed },
  });
  if (answer.status !== 200) return { relayStatus: answer.status, body: answer.body };
  const result = SettingsResultPlaintext.parse(
    await openJson(client.key, aad.settingsResult(requestId), answer.body.sealed),
  );
  return { relayStatus: 200, ...result };
}

describe("the whole path: agent -> hook -> daemon -> relay -> devices, and back", () => {
  it("rings both devices; one answers and the other sees it answered; a reply resumes the agent once", async () => {
    const text = "Refactored billing; 214 tests pass. Should the old API stay for a month?";
    const eventId = await agentFinishes(text);
    expect((await openCall(phone, eventId)).report).toMatchObject({
      text,
      sessionId: SESSION_ID,
      cwd: project,
    });
    expect((await openCall(browser, eventId)).report.text).toBe(text);

    const answer = await relayCall(relay.url, "POST", `/v1/calls/${eventId}/status`, {
      token: phone.credentials.deviceToken,
      body: { status: "answered" },
    });
    expect(answer.body).toEqual({ eventId, status: "answered", won: true });
    const seen = await browser.stream.waitFor("call-status", (data) => data.eventId === eventId);
    expect(seen.data).toMatchObject({ status: "answered", deviceId: phone.credentials.deviceId });
    await relayCall(relay.url, "POST", `/v1/calls/${eventId}/status`, {
      token: phone.credentials.deviceToken,
      body: { status: "ended" },
    });

    const replyText = "Yes, keep it for a month and add a deprecation header.";
    expect((await sendReply(phone, eventId, "reply-main", replyText)).status).toBe(202);
    for (const client of [phone, browser]) {
      await client.stream.waitFor(
        "reply-status",
        (data) => data.replyId === "reply-main" && data.status === "delivered",
      );
    }
    expect(await agent.runs()).toEqual([{ argv: ["--resume", SESSION_ID, "-p", replyText], cwd: project }]);
    const resent = await sendReply(phone, eventId, "reply-main", replyText);
    expect(resent.body).toMatchObject({ replyId: "reply-main", status: "delivered" });
    // A later reply reaches the daemon over the same link, after anything the resend could have sent: once it has
    // run, a run of the resend would be in the list.
    const laterText = "Also note it in the changelog.";
    expect((await sendReply(phone, eventId, "reply-later", laterText)).status).toBe(202);
    await phone.stream.waitFor(
      "reply-status",
      (data) => data.replyId === "reply-later" && data.status === "delivered",
    );
    expect(await agent.runs()).toEqual([
      { argv: ["--resume", SESSION_ID, "-p", replyText], cwd: project },
      { argv: ["--resume", SESSION_ID, "-p", laterText], cwd: project },
    ]);
    secrets.push(replyText, laterText);
  });

  it("shows the relay only the size bucket of a report: a 2-word and a 40-word report are sealed to one length", async () => {
    const short = await agentFinishes("Tests pass.");
    const long = await agentFinishes(`Refactored billing. ${"All 214 tests pass again. ".repeat(8)}`);
    const sealedLength = async (eventId: string) =>
      (await phone.stream.waitFor("call", (data) => data.eventId === eventId)).data.sealed.length;
    expect(await sealedLength(short)).toBe(await sealedLength(long));
    expect((await openCall(phone, long)).report.text).toContain("Refactored billing.");
  });

  it("runs a relayed PUT /llm/settings on the daemon and refuses a relayed GET /e2e/key with 403", async () => {
    const put = await relaySettings(phone, {
      method: "PUT",
      path: "/llm/settings",
      body: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-phone-only-secret-5678", model: "phone-model" },
    });
    expect(put).toMatchObject({
      relayStatus: 200,
      status: 200,
      body: { channel: { model: "phone-model", keyHint: "****5678" } },
    });
    const localKey = await readLocalKey(home);
    const local = await fetch(`${daemon.url}/llm/settings`, {
      headers: { authorization: `Bearer ${localKey}` },
    });
    expect(((await local.json()) as { channel: { model: string } }).channel.model).toBe("phone-model");
    expect(await relaySettings(browser, { method: "DELETE", path: "/llm/settings" })).toMatchObject({
      status: 200,
      body: { channel: null },
    });

    const key = await relaySettings(phone, { method: "GET", path: "/e2e/key" });
    expect(key).toMatchObject({ relayStatus: 403, body: { error: { code: "not_relayed" } } });
    secrets.push("sk-phone-only-secret-5678");
  });
});

describe("faults", () => {
  it("answers a device with another key: relayed settings 400 undecryptable_request, reply 'cannot decrypt reply'", async () => {
    const eventId = await agentFinishes("Added rate limiting to POST /orders.");
    const runsBefore = (await agent.runs()).length;
    const wrongKey = generateKey();
    const settings = await relaySettings(phone, { method: "GET", path: "/llm/settings" }, wrongKey);
    expect(settings).toMatchObject({ relayStatus: 400, body: { error: { code: "undecryptable_request" } } });
    expect((await sendReply(phone, eventId, "reply-wrong-key", "Go on.", wrongKey)).status).toBe(202);
    const status = await browser.stream.waitFor(
      "reply-status",
      (data) => data.replyId === "reply-wrong-key" && data.status !== "queued",
    );
    expect(status.data).toMatchObject({
      status: "failed",
      plaintextReason: CANNOT_DECRYPT_REPLY,
      sealedReason: null,
    });
    expect(await agent.runs()).toHaveLength(runsBefore);
  });

  it("delivers a reply queued while the daemon was offline once it returns, exactly once", async () => {
    const eventId = await agentFinishes("Migrated the orders table.");
    const runsBefore = (await agent.runs()).length;
    await daemon.stop("SIGTERM");
    expect(
      (await sendReply(browser, eventId, "reply-offline", "Now backfill the old rows.")).body,
    ).toMatchObject({
      status: "queued",
    });
    await phone.stream.waitFor("reply-status", (data) => data.replyId === "reply-offline");
    daemon = await startLinkedDaemon();
    await phone.stream.waitFor(
      "reply-status",
      (data) => data.replyId === "reply-offline" && data.status === "delivered",
    );
    const runs = await agent.runs();
    expect(runs.filter((run) => run.argv.includes("Now backfill the old rows."))).toHaveLength(1);
    expect(runs).toHaveLength(runsBefore + 1);
  });

  it("survives a relay restart mid-stream: devices resume by Last-Event-ID with nothing lost or doubled", async () => {
    const firstId = await agentFinishes("First report before the restart.");
    const port = relay.port;
    await relay.stop("SIGKILL");
    relay = await startRelayProcess({ dataDir: join(directory.path, "relay"), port, args: RELAY_ARGS });
    // Answered while both streams are still down (they wait the relay's retry hint): they learn it by resuming.
    const answer = await relayCall(relay.url, "POST", `/v1/calls/${firstId}/status`, {
      token: phone.credentials.deviceToken,
      body: { status: "answered" },
    });
    expect(answer.status).toBe(200);
    expect([phone.stream.opens, browser.stream.opens]).toEqual([1, 1]);
    const secondId = await agentFinishes("Second report after the restart.");
    await openCall(browser, secondId);
    for (const client of [phone, browser]) {
      await client.stream.waitFor("call-status", (data) => data.eventId === firstId);
      expect(client.stream.opens).toBe(2);
      const sequenced = client.stream.events.filter((event) => event.id !== "" && event.type !== "synced");
      const ids = sequenced.map((event) => Number(event.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const calls = client.stream.of("call").map((event) => event.data.eventId);
      expect(calls).toEqual([...seenCalls]);
      const answered = client.stream.of("call-status").filter((event) => event.data.eventId === firstId);
      expect(answered).toHaveLength(1);
    }
    // The daemon's link came back too: a reply after the restart still reaches the agent.
    await eventually(() => logOfAllDaemons().split("relay link open").length >= 4, { checks: 750 });
    expect((await sendReply(phone, secondId, "reply-after-restart", "Thanks, merge it.")).status).toBe(202);
    await phone.stream.waitFor(
      "reply-status",
      (data) => data.replyId === "reply-after-restart" && data.status === "delivered",
    );
  });

  it("never writes a key, token or reply text into the daemon's log", () => {
    const log = logOfAllDaemons();
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
