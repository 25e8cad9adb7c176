import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { aad, type E2eKey, openJson, parseKey, sealJson } from "@ringback/e2e-crypto";
import {
  type DeviceCredentials,
  PairingResult,
  SealedReportPayload,
  SettingsResultPlaintext,
} from "@ringback/protocol";
import { freePort, makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChildRelay } from "./support/child-relay.js";
import { DaemonProcess, readDaemonIdentity, runDaemonCli, setLocalPort } from "./support/daemon-process.js";
import { runClaudeStopHook } from "./support/hook-process.js";
import { type ApiResponse, type RequestOptions, requestAt } from "./support/in-process-relay.js";
import { describePostgres } from "./support/postgres-schema.js";
import { LISTENERS, type RelaysBehindNginx, startRelaysBehindNginx } from "./support/relays-behind-nginx.js";
import { SseClient } from "./support/sse-client.js";
import { type StandInAgent, standInClaude } from "./support/stand-in-agent.js";

/*
 * Real processes only: PostgreSQL (the global setup's server, a fresh schema), two `ringback-relay` processes on
 * it with --behind-proxy, nginx in front of them, the real daemon (`ringback login` then `ringback run`) linked
 * through nginx, and the real Claude Code hook. The daemon uses nginx's round-robin listener (the README's
 * config). The two clients are pinned through nginx: the phone connects to the listener that prefers instance
 * `a`, the browser to the one that prefers `b`, each with the other instance as nginx `backup`, so killing an
 * instance fails its client over through nginx. The relay logs prove which instance served which stream.
 */

/** A device as the web app is one: its identity, the key from the pairing link, its nginx listener and stream. */
interface Client {
  readonly credentials: DeviceCredentials;
  readonly key: E2eKey;
  readonly stream: SseClient;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
}

const SEQUENCED = new Set(["call", "call-status", "reply-status"]);
const SESSION_ID = "5d1c2b7e-claude-session";
/** Real processes on a 2-core machine shared with other suites: generous, and never a measure of speed. */
const TEST_TIMEOUT_MS = 90_000;
// A short retry hint keeps the failover quick, and still leaves a gap in which events are posted.
const RELAY_ARGS = ["--sse-retry-ms", "1000"];

let dir: TemporaryDirectory;
let home: string;
let relays: RelaysBehindNginx;
let daemon: DaemonProcess;
let computer: { deviceId: string; key: E2eKey };
let phone: Client;
let browser: Client;
let agent: StandInAgent;
let turn = 0;
let settingsCount = 0;

beforeAll(async () => {
  dir = await makeTemporaryDirectory("ringback-behind-nginx-");
  home = join(dir.path, "home");
  relays = await startRelaysBehindNginx(RELAY_ARGS);
  const login = await runDaemonCli(home, [
    "login",
    "--server",
    relays.url(LISTENERS.relay),
    "--name",
    "laptop",
  ]);
  expect(login.code, login.stderr).toBe(0);
  await setLocalPort(home, await freePort());
  computer = await readDaemonIdentity(home);
  agent = await standInClaude(join(dir.path, "agent"));
  daemon = await DaemonProcess.start(home, { RINGBACK_CLAUDE_BIN: agent.bin });
  await daemon.waitForLog("relay link open");
  phone = await addClient("phone", relays.url(LISTENERS.preferA));
  browser = await addClient("browser", relays.url(LISTENERS.preferB));
  await Promise.all([phone.stream.waitForSynced(1, 1_500), browser.stream.waitForSynced(1, 1_500)]);
}, 120_000);

afterAll(async () => {
  phone?.stream.close();
  browser?.stream.close();
  await daemon?.stop("SIGKILL");
  await relays?.[Symbol.asyncDispose]();
  await dir?.[Symbol.asyncDispose]();
}, 60_000);

/** Pairs a device as a person does: `ringback pair`, then the code and key on the device, through `url`. */
async function addClient(kind: "phone" | "browser", url: string): Promise<Client> {
  const pair = await runDaemonCli(home, ["pair", "--json"]);
  expect(pair.code, pair.stderr).toBe(0);
  const pairing = PairingResult.parse(JSON.parse(pair.stdout));
  const request = requestAt(url);
  const joined = await request("POST", "/v1/pairing-codes/redeem", {
    body: { code: pairing.code, deviceName: `my ${kind}`, deviceKind: kind },
  });
  expect(joined.status).toBe(201);
  const credentials = joined.body as DeviceCredentials;
  const stream = new SseClient(url, credentials.deviceToken);
  return { credentials, key: parseKey(pairing.key), stream, request };
}

/** An agent turn ends: the real hook hands Claude Code's Stop payload to the daemon (which posts it later). */
async function agentFinishes(text: string): Promise<void> {
  turn += 1;
  const code = await runClaudeStopHook(home, {
    session_id: SESSION_ID,
    prompt_id: `prompt-${turn}`,
    cwd: dir.path,
    transcript_path: join(dir.path, "transcript.jsonl"),
    last_assistant_message: text,
  });
  expect(code).toBe(0);
}

/** Report text of each call the phone received, by event id (the relay sees only ciphertext: open it). */
const reportTexts = new Map<string, string>();

/** The event id of the call whose report says `text`, once the phone has it. */
function callOf(text: string): Promise<string> {
  return phone.stream.waitUntil(
    async () => {
      for (const call of phone.stream.of("call")) {
        if (!reportTexts.has(call.data.eventId))
          reportTexts.set(call.data.eventId, (await openReport(phone, call.data.eventId)).report.text);
      }
      return [...reportTexts].find(([, reportText]) => reportText === text)?.[0];
    },
    `a call with the report "${text}" on the phone`,
    1_500,
  );
}

async function openReport(client: Client, eventId: string) {
  const call = await client.stream.waitFor("call", (data) => data.eventId === eventId, 1_500);
  return SealedReportPayload.parse(await openJson(client.key, aad.report(eventId), call.data.sealed));
}

/**
 * The time and fresh nonce a device seals into what it sends the computer, which refuses a copy (the daemon's
 * replay rule); with the computer's id in the associated data.
 */
function stamp() {
  return { sentAt: new Date().toISOString(), nonce: randomBytes(16).toString("base64url") };
}

/** A relayed settings request, sealed with the client's key, through the client's nginx listener. */
async function relaySettings(client: Client, plaintext: object) {
  settingsCount += 1;
  const requestId = `settings-${settingsCount}`;
  const answer = await client.request("POST", `/v1/devices/${computer.deviceId}/settings`, {
    token: client.credentials.deviceToken,
    body: {
      requestId,
      sealed: await sealJson(client.key, aad.settingsRequestTo(computer.deviceId, requestId), {
        ...plaintext,
        ...stamp(),
      }),
    },
  });
  if (answer.status !== 200) return { relayStatus: answer.status, body: answer.body };
  const result = SettingsResultPlaintext.parse(
    await openJson(client.key, aad.settingsResult(requestId), answer.body.sealed),
  );
  return { relayStatus: 200, ...result };
}

/** How many SSE streams of `deviceId` the instance has opened (its request log names the device). */
function streamsServed(relay: ChildRelay, deviceId: string): number {
  return relay.stderr
    .split("\n")
    .filter((line) => line.includes("GET /v1/stream 200") && line.endsWith(`device=${deviceId}`)).length;
}

/** The instance the daemon linked to (before any instance is killed, exactly one has). */
function linkHolder(): ChildRelay {
  const holders = [relays.a, relays.b].filter((relay) =>
    relay.stderr.includes(`daemon link open device=${computer.deviceId}`),
  );
  const [holder] = holders;
  if (!holder || holders.length !== 1)
    throw new Error(`${holders.length} instances logged the daemon's link.`);
  return holder;
}

function sequenced(client: Client): [number, string, string][] {
  return client.stream.events
    .filter((event) => SEQUENCED.has(event.type))
    .map((event) => [Number(event.id), event.type, event.data.eventId]);
}

const REPORTS = {
  first: "Split the billing service; 312 tests pass. Keep the old endpoint for a release?",
  beforeCrash: "Moved invoices to the new queue.",
  duringCrash: "Dropped the legacy cron job.",
  afterCrash: "Backfilled the invoice numbers.",
  afterResume: "Removed the feature flag.",
} as const;

describePostgres("two relay instances on PostgreSQL behind nginx, with the real daemon and hook", () => {
  it(
    "rings both clients, each streaming from its own instance, for a report the daemon posts through nginx",
    async () => {
      await agentFinishes(REPORTS.first);
      const eventId = await callOf(REPORTS.first);
      expect((await openReport(browser, eventId)).report).toMatchObject({
        text: REPORTS.first,
        sessionId: SESSION_ID,
      });
      const served = (client: Client) =>
        [relays.a, relays.b].map((relay) => streamsServed(relay, client.credentials.deviceId));
      expect(served(phone)).toEqual([1, 0]);
      expect(served(browser)).toEqual([0, 1]);
      // Through nginx the relays still hold only ciphertext: the report text is in neither log.
      expect(relays.a.stderr + relays.b.stderr).not.toContain("billing service");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "lets exactly one of two answers at once win, each on another instance, and both clients learn who",
    async () => {
      const eventId = await callOf(REPORTS.first);
      const answers = await Promise.all(
        [phone, browser].map((client) =>
          client.request("POST", `/v1/calls/${eventId}/status`, {
            token: client.credentials.deviceToken,
            body: { status: "answered" },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers[0]?.status === 200 ? phone : browser;
      expect(answers.find((answer) => answer.status === 409)?.body.error.code).toBe("call_already_answered");
      for (const client of [phone, browser]) {
        const status = await client.stream.waitFor("call-status", (data) => data.eventId === eventId, 750);
        expect(status.data).toMatchObject({ status: "answered", deviceId: winner.credentials.deviceId });
        expect(client.stream.of("call-status")).toHaveLength(1);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "delivers a reply sent to the instance without the daemon's link, resuming the agent once; both clients see it delivered",
    async () => {
      const eventId = await callOf(REPORTS.first);
      // The client whose listener prefers the instance that does not hold the link: the reply must cross over.
      const sender = linkHolder() === relays.a ? browser : phone;
      const replyId = "reply-through-nginx";
      const text = "Yes, keep the old endpoint for one more release.";
      const sent = await sender.request("POST", `/v1/calls/${eventId}/replies`, {
        token: sender.credentials.deviceToken,
        body: {
          replyId,
          sealed: await sealJson(sender.key, aad.replyTo(computer.deviceId, eventId), {
            replyId,
            text,
            ...stamp(),
          }),
        },
      });
      expect(sent.status).toBe(202);
      for (const client of [phone, browser]) {
        const status = await client.stream.waitFor(
          "reply-status",
          (data) => data.replyId === replyId && data.status !== "queued",
          1_500,
        );
        expect(status.data).toMatchObject({ eventId, status: "delivered", sealedReason: null });
      }
      expect(await agent.runs()).toEqual([{ argv: ["--resume", SESSION_ID, "-p", text], cwd: dir.path }]);
      expect(relays.a.stderr + relays.b.stderr).not.toContain("old endpoint");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "relays a sealed settings request to the daemon whichever instance it reaches",
    async () => {
      // The phone's request reaches `a`, the browser's `b`; the link is on one of them, so one request crosses.
      expect([relays.a, relays.b]).toContain(linkHolder());
      const [fromPhone, fromBrowser] = await Promise.all([
        relaySettings(phone, { method: "GET", path: "/llm/settings" }),
        relaySettings(browser, { method: "GET", path: "/llm/settings" }),
      ]);
      expect(fromPhone).toMatchObject({ relayStatus: 200, status: 200 });
      expect(fromBrowser).toMatchObject({ relayStatus: 200, status: 200 });
      const put = await relaySettings(browser, {
        method: "PUT",
        path: "/llm/settings",
        body: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-browser-only-4321", model: "browser-model" },
      });
      expect(put).toMatchObject({
        relayStatus: 200,
        status: 200,
        body: { channel: { model: "browser-model" } },
      });
      expect(await relaySettings(phone, { method: "GET", path: "/llm/settings" })).toMatchObject({
        relayStatus: 200,
        status: 200,
        body: { channel: { model: "browser-model", keyHint: "****4321" } },
      });
      expect(relays.a.stderr + relays.b.stderr).not.toContain("sk-browser-only-4321");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "resumes the clients of an instance killed mid-stream on the other one through nginx, nothing lost or doubled",
    async () => {
      // Kill the instance holding the daemon's link: one client and the daemon both fail over through nginx.
      const dead = linkHolder();
      const alive = dead === relays.a ? relays.b : relays.a;
      const [moving, staying] = dead === relays.a ? [phone, browser] : [browser, phone];
      await agentFinishes(REPORTS.beforeCrash);
      const beforeCrash = await callOf(REPORTS.beforeCrash);
      await browser.stream.waitFor("call", (data) => data.eventId === beforeCrash, 1_500);

      // The daemon posts one report while the instance dies; a status change and another report follow while
      // the moving client is away (it waits the relay's 1 s retry hint, then resumes with Last-Event-ID through
      // nginx, which now sends it to the backup instance); one more report comes after it is back.
      const hookDuringCrash = agentFinishes(REPORTS.duringCrash);
      await dead.stop("SIGKILL");
      await hookDuringCrash;
      const rejected = await staying.request("POST", `/v1/calls/${beforeCrash}/status`, {
        token: staying.credentials.deviceToken,
        body: { status: "rejected" },
      });
      expect(rejected.status).toBe(200);
      await agentFinishes(REPORTS.afterCrash);
      await moving.stream.waitUntil(
        () => (moving.stream.opens === 2 ? true : undefined),
        "the resume",
        1_500,
      );
      await moving.stream.waitForSynced(2, 1_500);
      // Live again on the surviving instance: the next report arrives without another reconnect.
      await agentFinishes(REPORTS.afterResume);

      const expectedCalls = await Promise.all(Object.values(REPORTS).map((text) => callOf(text)));
      for (const client of [phone, browser]) {
        for (const eventId of expectedCalls) {
          await client.stream.waitFor("call", (data) => data.eventId === eventId, 1_500);
        }
        await client.stream.waitFor("call-status", (data) => data.eventId === beforeCrash, 1_500);
      }
      expect(moving.stream.opens).toBe(2);
      expect(staying.stream.opens).toBe(1);
      expect(streamsServed(alive, moving.credentials.deviceId)).toBe(1);

      const fromPhone = sequenced(phone);
      expect(sequenced(browser)).toEqual(fromPhone);
      // Every seq of the account, in order, each once: 1..N without a gap or a repeat.
      expect(fromPhone.map(([seq]) => seq)).toEqual(fromPhone.map((_, index) => index + 1));
      const calls = fromPhone.filter(([, type]) => type === "call").map(([, , eventId]) => eventId);
      expect([...calls].sort()).toEqual([...expectedCalls].sort());
      const statuses = fromPhone.filter(([, type]) => type === "call-status").map(([, , eventId]) => eventId);
      expect(statuses).toEqual([expectedCalls[0], beforeCrash]);

      // The daemon's link came back through nginx on the surviving instance: settings reach it from both clients.
      await daemon.waitForLog("relay link open", 2, 1_500);
      for (const client of [phone, browser]) {
        expect(await relaySettings(client, { method: "GET", path: "/llm/settings" })).toMatchObject({
          relayStatus: 200,
          status: 200,
        });
      }
      expect(alive.stderr).toContain(`daemon link open device=${computer.deviceId}`);
    },
    TEST_TIMEOUT_MS,
  );
});
