import { createHash } from "node:crypto";
import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RelayClient, relayDaemonRequest } from "@ringback/client";
import { CANNOT_DECRYPT_REPLY, Presence } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory, startFakeEscalationChannels } from "@ringback/test-kit";
import { beforeEach, describe, expect, it } from "vitest";
import type { DoctorCheck } from "../src/runtime/doctor/doctor-check.js";
import { PRESENCE_FILE } from "../src/runtime/presence/presence-file.js";
import { daemonEnv, postReport, readLocalKey, runCli, startDaemonProcess } from "./helpers/daemon-process.js";
import { deviceIdOfToken } from "./helpers/hostile-relay.js";
import { askAsTheHook, bashAsk, failureReason, openCall, sealDecision } from "./helpers/permission-asks.js";
import { COMPUTER_ID, permissionHomeForFile } from "./helpers/permission-home.js";

/**
 * `POST /permission-requests` as the hook meets it: a real daemon process, a relay it is linked to, a device's sealed
 * decision coming back over the link (design: "Needs you" calls, Flows 2 and 4; Presence).
 */
const WAIT_MS = 8000;

const home = permissionHomeForFile({ waitMs: WAIT_MS });

beforeEach(async () => {
  home().relay.answerPostsWith(201);
  expect((await home().local("PUT", "/presence", { away: true })).status).toBe(200);
});

/** A settings request from a paired device (the phone unless told), sealed and relayed as the web app sends it. */
function fromPhone(request: Parameters<typeof relayDaemonRequest>[3], deviceToken = "phone-token") {
  const phone = new RelayClient({ serverUrl: home().relay.url, deviceToken });
  return relayDaemonRequest(phone, home().key, COMPUTER_ID, request);
}

async function decide(options: Parameters<typeof sealDecision>[2]) {
  return home().relay.send(await sealDecision(home().key, COMPUTER_ID, options));
}

describe("POST /permission-requests", () => {
  it("answers present at once, rings nothing, when the person is at the keyboard", async () => {
    expect((await home().local("PUT", "/presence", { away: false })).status).toBe(200);
    const before = home().relay.posts.length;

    const { answer } = askAsTheHook(home().daemon, home().localKey, bashAsk("npm test"));

    expect(await answer).toEqual({ status: 200, body: { outcome: "present" } });
    expect(home().relay.posts).toHaveLength(before);
  });

  it("answers failed when the relay does not take the call", async () => {
    home().relay.answerPostsWith(503);

    const { answer } = askAsTheHook(home().daemon, home().localKey, bashAsk("npm test"));

    expect(await answer).toEqual({ status: 200, body: { outcome: "failed" } });
  });

  it("refuses a body that is not an ask with 400 invalid_request and the spec's error body", async () => {
    for (const body of [
      { agent: "claude-code" },
      { ...bashAsk("ls"), agent: "tracker" },
      { ...bashAsk("ls"), shortened: ["text"] },
    ]) {
      const response = await home().local("POST", "/permission-requests", body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: { code: "invalid_request", message: expect.any(String) },
      });
    }
  });

  it("is refused without the local key, and never runs when relayed from a device", async () => {
    const anonymous = await fetch(`${home().daemon.url}/permission-requests`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(bashAsk("ls")),
    });
    expect(anonymous.status).toBe(401);
    await expect(
      fromPhone({
        method: "POST",
        path: "/permission-requests",
        body: bashAsk("ls"),
      }),
    ).rejects.toMatchObject({ code: "not_relayed" });
  });

  it("rings a needs-you call that says the ask in words, and a device's allow lets the agent go on", async () => {
    const ask = bashAsk("rm -rf build && npm run build");
    const { hook, post, digest } = await home().ring(ask);

    expect(post.eventId).toMatch(/^needs_[A-Za-z0-9_-]{22}$/);
    expect(post.source).toBe("claude-code");
    const call = await openCall(home().key, post);
    const canonical = JSON.stringify({ command: "rm -rf build && npm run build", description: "Runs it" });
    expect(digest).toBe(createHash("sha256").update(canonical).digest("hex"));
    expect(call.needsYou).toMatchObject({
      agent: "claude-code",
      toolName: "Bash",
      toolInput: ask.toolInput,
      shortened: [],
    });
    expect(Date.parse(call.needsYou?.expiresAt ?? "")).toBeGreaterThan(Date.now());
    expect(Date.parse(call.needsYou?.expiresAt ?? "")).toBeLessThanOrEqual(
      Date.parse(post.occurredAt) + WAIT_MS,
    );
    expect(call.brief.title).toBe("Claude Code needs you: run a command");
    expect(call.brief.spoken).toContain("in the project website");
    expect(call.brief.spoken).toContain("Before asking, it said: I need to run this to go on.");
    expect(call.brief.cards).toEqual([{ title: "The command", body: "rm -rf build && npm run build" }]);
    expect(call.brief.meta).toMatchObject({ status: "generated", llmCalls: 0, model: null, error: null });
    expect(call.report).toMatchObject({ eventId: post.eventId, text: call.brief.spoken, cwd: ask.cwd });

    const status = await decide({ eventId: post.eventId, toolInputDigest: digest, verdict: "allow" });

    expect(status).toEqual({ type: "reply-status", replyId: expect.any(String), status: "delivered" });
    expect(await hook.answer).toEqual({
      status: 200,
      body: { outcome: "decided", verdict: "allow", reason: null, decidedOn: "a paired device" },
    });
  });

  it("tells the agent which device decided by the name sealed with the decision, printable only", async () => {
    const named = await home().ring(bashAsk("npm run deploy"));
    await decide({
      eventId: named.post.eventId,
      toolInputDigest: named.digest,
      verdict: "allow",
      deviceName: "Zoë's Pixel",
    });
    expect((await named.hook.answer).body).toMatchObject({ outcome: "decided", decidedOn: "Zoë's Pixel" });

    const escaping = await home().ring(bashAsk("npm run lint"));
    await decide({
      eventId: escaping.post.eventId,
      toolInputDigest: escaping.digest,
      verdict: "allow",
      deviceName: "Pixel\u001b[31m \u202eevil",
    });
    expect((await escaping.hook.answer).body).toMatchObject({ decidedOn: "Pixel[31m evil" });
  });

  it("passes a deny's reason to the agent", async () => {
    const { hook, post, digest } = await home().ring(bashAsk("git push --force"));

    await decide({
      eventId: post.eventId,
      toolInputDigest: digest,
      verdict: "deny",
      reason: "Not on main, please.",
    });

    expect((await hook.answer).body).toMatchObject({
      outcome: "decided",
      verdict: "deny",
      reason: "Not on main, please.",
    });
  });

  it("takes the first of two valid decisions; the second settles failed, already decided", async () => {
    const { hook, post, digest } = await home().ring(bashAsk("make deploy"));

    const first = await decide({ eventId: post.eventId, toolInputDigest: digest, verdict: "deny" });
    const second = await decide({ eventId: post.eventId, toolInputDigest: digest, verdict: "allow" });

    expect(first).toMatchObject({ status: "delivered" });
    expect(second).toMatchObject({ status: "failed", sealedReason: expect.any(String) });
    expect(await failureReason(home().key, second as { replyId: string; sealedReason: string })).toBe(
      "already decided",
    );
    expect((await hook.answer).body).toMatchObject({ outcome: "decided", verdict: "deny" });
  });

  it("refuses a decision whose tool input digest differs: it is not for this request", async () => {
    const { hook, post, digest } = await home().ring(bashAsk("ls -la"));
    const otherDigest = createHash("sha256").update('{"command":"rm -rf /"}').digest("hex");

    const refused = await decide({ eventId: post.eventId, toolInputDigest: otherDigest, verdict: "allow" });
    const honest = await decide({ eventId: post.eventId, toolInputDigest: digest, verdict: "deny" });

    expect(await failureReason(home().key, refused as { replyId: string })).toBe(
      "this decision is not for this request",
    );
    expect(honest).toMatchObject({ status: "delivered" });
    expect((await hook.answer).body).toMatchObject({ outcome: "decided", verdict: "deny" });
  });

  it("answers expired when nobody decides in time, and refuses a decision after it: the agent stopped waiting", async () => {
    const { hook, post, digest } = await home().ring(bashAsk("npm publish"));

    expect(await hook.answer).toEqual({ status: 200, body: { outcome: "expired" } });
    // Nobody waits any more: the call stops ringing everywhere.
    await eventually(
      () =>
        home().relay.statusWrites.some((write) => write.eventId === post.eventId && write.status === "ended"),
      { what: "the expired call ended at the relay", on: home().relay.changes },
    );
    const late = await decide({ eventId: post.eventId, toolInputDigest: digest, verdict: "allow" });

    expect(late).toMatchObject({ status: "failed" });
    expect(await failureReason(home().key, late as { replyId: string })).toBe("the agent stopped waiting");
  });

  it("drops the ask when the hook goes away: a decision after it is refused", async () => {
    const { hook, post, digest } = await home().ring(bashAsk("docker system prune"));

    hook.hangUp();
    await eventually(
      () => home().daemon.stderr().includes(`${post.eventId}: no decision (the hook stopped waiting)`),
      {
        what: "the daemon to see the hook go",
      },
    );
    const late = await decide({ eventId: post.eventId, toolInputDigest: digest, verdict: "allow" });

    expect(await failureReason(home().key, late as { replyId: string })).toBe("the agent stopped waiting");
  });

  it("ends a call whose hook went away at the relay, as this computer, so it stops ringing on every device", async () => {
    const { hook, post } = await home().ring(bashAsk("git push --force"));

    // The agent decided on its own (Codex's automatic review, Claude Code's terminal dialog) and stopped the hook.
    hook.hangUp();

    const write = await eventually(
      () => home().relay.statusWrites.find((candidate) => candidate.eventId === post.eventId),
      { what: "the daemon to end the call at the relay", on: home().relay.changes },
    );
    expect(write).toEqual({
      eventId: post.eventId,
      status: "ended",
      deviceId: deviceIdOfToken("computer-token-0123456789"),
    });
    await eventually(
      () => home().daemon.stderr().includes(`${post.eventId}: the call no longer waits; it stopped ringing`),
      { what: "the daemon to log the call ended" },
    );
  });

  it("leaves a decided call to the device that decided: nothing is ended for it", async () => {
    const { hook, post, digest } = await home().ring(bashAsk("npm version patch"));
    await decide({ eventId: post.eventId, toolInputDigest: digest, verdict: "allow" });
    expect(await hook.answer).toMatchObject({ body: { outcome: "decided" } });
    // A later call's end is the sign the daemon is past this one: only that one is ended.
    const later = await home().ring(bashAsk("npm version minor"));
    later.hook.hangUp();
    await eventually(() => home().relay.statusWrites.some((write) => write.eventId === later.post.eventId), {
      what: "the later call ended",
      on: home().relay.changes,
    });
    expect(home().relay.statusWrites.filter((write) => write.eventId === post.eventId)).toEqual([]);
  });

  it("answers a decision sealed for another computer with cannot decrypt", async () => {
    const { hook, post, digest } = await home().ring(bashAsk("cat .env"));

    const elsewhere = await home().relay.send(
      await sealDecision(home().key, "dev_other", {
        eventId: post.eventId,
        toolInputDigest: digest,
        verdict: "allow",
      }),
    );
    await decide({ eventId: post.eventId, toolInputDigest: digest, verdict: "deny" });

    expect(elsewhere).toMatchObject({ status: "failed", plaintextReason: CANNOT_DECRYPT_REPLY });
    expect((await hook.answer).body).toMatchObject({ verdict: "deny" });
  });

  it("ends a waiting ask with present when the person says they are back", async () => {
    const { hook } = await home().ring(bashAsk("terraform apply"));

    expect((await home().local("PUT", "/presence", { away: false })).status).toBe(200);

    expect((await hook.answer).body).toEqual({ outcome: "present" });
  });
});

describe("presence", () => {
  it("is kept in presence.json (mode 600), read and set locally and from a device through the relay", async () => {
    const put = await home().local("PUT", "/presence", { away: false });
    expect(Presence.parse(await put.json())).toMatchObject({ away: false, changedBy: "this computer" });
    expect((await stat(join(home().path, PRESENCE_FILE))).mode & 0o777).toBe(0o600);

    const relayed = await fromPhone({
      method: "PUT",
      path: "/presence",
      body: { away: true },
    });
    expect(relayed.status).toBe(200);
    expect(relayed.body).toMatchObject({ away: true, changedBy: "a paired device" });
    const read = await fromPhone({
      method: "GET",
      path: "/presence",
    });
    expect(read.body).toMatchObject({ away: true });
    expect(Presence.parse(await (await home().local("GET", "/presence")).json()).away).toBe(true);

    const invalid = await home().local("PUT", "/presence", { away: "yes" });
    expect(invalid.status).toBe(400);
  });

  it("is set and shown by ringback away, through the running daemon", async () => {
    const env = daemonEnv(home().path, { RINGBACK_PORT: String(home().daemon.port) });

    const off = await runCli(["away", "off"], env);
    expect(off.code).toBe(0);
    expect(off.stdout).toMatch(
      /^present: an agent asking permission shows its own dialog here \(set by this computer at /,
    );
    expect(Presence.parse(await (await home().local("GET", "/presence")).json()).away).toBe(false);

    const on = await runCli(["away", "on"], env);
    expect(on.stdout).toMatch(/^away: an agent asking permission rings your phones/);
    expect((await runCli(["away"], env)).stdout).toMatch(/^away: /);
    expect((await runCli(["away", "maybe"], env)).code).toBe(1);
    expect((await runCli(["away", "--help"], env)).stdout).toContain("ringback away [on|off]");
  });
});

describe("ringback escalation and the phone's Escalation settings", () => {
  it("saves a channel with its token from stdin, shows it masked here and on the phone, and tests it end to end", async () => {
    const env = daemonEnv(home().path, { RINGBACK_PORT: String(home().daemon.port) });
    await using ntfy = await startFakeEscalationChannels({
      ntfyToken: "tk_clintfysecret",
      pushover: { appToken: "-", userKey: "-" },
      telegram: { botToken: "-", chatId: "-" },
      twilio: { accountSid: "-", authToken: "-" },
    });

    const saved = await runCli(
      ["escalation", "ntfy", "--server", ntfy.origin, "--topic", "ringback-test", "--token", "-"],
      env,
      "tk_clintfysecret\n",
    );
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain(`2. ntfy: ${ntfy.origin}, topic ringback-test, token ****cret`);
    expect(saved.stdout).toContain('"needs you" calls escalate after 60 s, then a rung every 30 s');
    expect(saved.stdout).not.toContain("tk_clintfysecret");

    const onPhone = await fromPhone({ method: "GET", path: "/escalation/settings" });
    expect(onPhone.body).toMatchObject({
      channels: [{ kind: "ntfy", serverUrl: ntfy.origin, topic: "ringback-test", tokenHint: "****cret" }],
    });
    expect(JSON.stringify(onPhone.body)).not.toContain("tk_clintfysecret");
    // A phone cannot move the saved token to another server: without a token, the new one gets none.
    const moved = await fromPhone({
      method: "PUT",
      path: "/escalation/settings",
      body: { channels: [{ kind: "ntfy", serverUrl: "http://127.0.0.1:9", topic: "elsewhere" }] },
    });
    expect(moved.body).toMatchObject({ channels: [{ kind: "ntfy", tokenHint: null }] });
    const noToken = await fromPhone({
      method: "PUT",
      path: "/escalation/settings",
      body: { channels: [{ kind: "telegram", chatId: "42" }] },
    });
    expect(noToken).toMatchObject({ status: 422, body: { error: { code: "invalid_escalation_settings" } } });

    const channel = {
      kind: "ntfy",
      serverUrl: ntfy.origin,
      topic: "ringback-test",
      token: "tk_clintfysecret",
    };
    expect((await home().local("PUT", "/escalation/settings", { channels: [channel] })).status).toBe(200);
    const tested = await runCli(["escalation", "test"], env);
    expect(tested.stdout).toBe(
      "push: skipped (the repeat push is sent with a ringing call only)\nntfy: sent (HTTP 200)\n",
    );
    expect(ntfy.requests.at(-1)).toMatchObject({ url: "/ringback-test", headers: { priority: "5" } });
    const again = await runCli(["escalation", "test"], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("The ladder was tested a moment ago");
    expect((await runCli(["escalation", "remove", "ntfy"], env)).stdout).toContain("(no channel:");
  });

  it("changes the schedule from the command line: a timing left out keeps its value, the step applies to both", async () => {
    const env = daemonEnv(home().path, { RINGBACK_PORT: String(home().daemon.port) });
    const scheduled = await runCli(["escalation", "schedule", "--needs-you", "90", "--step", "45"], env);
    expect(scheduled.stdout).toContain('"needs you" calls escalate after 90 s, then a rung every 45 s');
    expect(scheduled.stdout).toContain('"finished" calls escalate never');
    const restored = await runCli(["escalation", "schedule", "--needs-you", "60", "--step", "30"], env);
    expect(restored.stdout).toContain('"needs you" calls escalate after 60 s, then a rung every 30 s');
  });
});

describe("ringback rules and the phone's Calls from agents settings", () => {
  it("sets the window, the projects and the quiet summary here, shows them on the phone, takes the phone's change, refuses a wrong one", async () => {
    const env = daemonEnv(home().path, { RINGBACK_PORT: String(home().daemon.port) });
    expect((await runCli(["rules", "set", "--gather", "7"], env)).stdout).toContain("gathering window: 7 s");
    await runCli(["rules", "project", "docs", "silent"], env);
    const summary = await runCli(["rules", "quiet-summary", "18:30"], env);
    expect(summary.stdout).toBe(
      "gathering window: 7 s (finished calls within it make one call)\nprojects:\n" +
        "  docs: silent (waits for the quiet summary)\nquiet summary: 18:30\n",
    );

    const onPhone = await fromPhone({ method: "GET", path: "/call-rules" });
    expect(onPhone).toEqual({
      status: 200,
      body: { gatherSeconds: 7, projects: { docs: "silent" }, quietSummaryAt: "18:30" },
    });
    for (const body of [
      { gatherSeconds: 301 },
      { gatherSeconds: 5, projects: { docs: "mute" } },
      { later: true },
    ]) {
      const refused = await fromPhone({ method: "PUT", path: "/call-rules", body });
      expect(refused).toMatchObject({ status: 400, body: { error: { code: "invalid_request" } } });
    }
    const set = await fromPhone({
      method: "PUT",
      path: "/call-rules",
      body: { gatherSeconds: 0, projects: { docs: "round-up" }, quietSummaryAt: null },
    });
    expect(set).toEqual({
      status: 200,
      body: { gatherSeconds: 0, projects: { docs: "round-up" }, quietSummaryAt: null },
    });
    expect((await runCli(["rules", "project", "docs", "ring"], env)).stdout).toBe(
      "gathering window: off (each finished call rings as soon as its brief is written)\nprojects:\n" +
        "  (none: every project rings)\nquiet summary: off\n",
    );

    // A window of 0 s: a finished turn goes to the relay as soon as its brief is written, held by nothing.
    const before = home().relay.posts.length;
    const turn = {
      source: "codex",
      sessionId: "rules-session",
      cwd: "/home/user/docs",
      text: "Docs rebuilt.",
    };
    expect((await postReport(home().daemon, home().localKey, turn)).status).toBe(202);
    await eventually(() => home().relay.posts.length === before + 1, { on: home().relay.changes });
    expect(home().relay.posts.at(-1)?.ring).toBeUndefined();
    expect(home().daemon.stderr()).not.toContain("held with the calls finishing");
  });
});

/** "HH:MM" in UTC, `minutes` from now. */
function utcClock(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString().slice(11, 16);
}

describe("presence set by the ring modes' away times", () => {
  it("goes away when a device's away time started after the switch, rings, and the switch set since wins", async () => {
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const stored = { away: false, changedAt: hoursAgo, changedBy: "this computer" };
    await writeFile(join(home().path, PRESENCE_FILE), JSON.stringify(stored), { mode: 0o600 });
    const commute = {
      timeZone: "UTC",
      deviceId: "dev_phone",
      periods: [
        {
          modeName: "Commute",
          days: [0, 1, 2, 3, 4, 5, 6],
          ranges: [{ start: utcClock(-5), end: utcClock(60) }],
        },
      ],
    };
    const sent = await fromPhone({
      method: "PUT",
      path: "/presence/schedule",
      body: { schedule: commute },
    });
    expect(sent.status).toBe(200);
    expect(Presence.parse(sent.body)).toMatchObject({
      away: true,
      changedBy: 'the ring mode "Commute"',
      schedule: { ...commute, setBy: "a paired device" },
    });
    const { hook, post, digest } = await home().ring(bashAsk("npm publish"));
    await decide({ eventId: post.eventId, toolInputDigest: digest, verdict: "deny", reason: "Not today." });
    expect((await hook.answer).body).toMatchObject({
      outcome: "decided",
      verdict: "deny",
      reason: "Not today.",
    });

    const back = await home().local("PUT", "/presence", { away: false });
    expect(Presence.parse(await back.json())).toMatchObject({ away: false, changedBy: "this computer" });
    expect((await askAsTheHook(home().daemon, home().localKey, bashAsk("ls")).answer).body).toEqual({
      outcome: "present",
    });
    const shown = await runCli(
      ["away"],
      daemonEnv(home().path, { RINGBACK_PORT: String(home().daemon.port) }),
    );
    expect(shown.stdout).toContain("away times from the ring modes (sent by a paired device at ");
    expect(shown.stdout).toMatch(/ {2}"Commute" every day \d\d:\d\d-\d\d:\d\d/);

    const cleared = await home().local("PUT", "/presence/schedule", { schedule: null });
    expect(Presence.parse(await cleared.json())).toMatchObject({ away: false, schedule: null });
  });

  it("keeps away times as the sending device's (the relay's stamp), and refuses a body naming another device", async () => {
    const evenings = {
      timeZone: "UTC",
      periods: [{ modeName: "Evenings", days: [1], ranges: [{ start: "18:00", end: "22:00" }] }],
    };
    const spoofed = await fromPhone(
      {
        method: "PUT",
        path: "/presence/schedule",
        body: { schedule: { ...evenings, deviceId: "dev_phone" } },
      },
      "tablet-token",
    );
    expect(spoofed.status).toBe(403);
    expect(spoofed.body).toMatchObject({ error: { code: "device_mismatch" } });
    const kept = await fromPhone(
      { method: "PUT", path: "/presence/schedule", body: { schedule: evenings } },
      "tablet-token",
    );
    expect(kept.status).toBe(200);
    expect(Presence.parse(kept.body).schedule).toMatchObject({ deviceId: deviceIdOfToken("tablet-token") });
    const cleared = await home().local("PUT", "/presence/schedule", { schedule: null });
    expect(Presence.parse(await cleared.json()).schedule).toBeNull();
  });

  it("refuses away times it cannot read with 400, and keeps the ones it has", async () => {
    const refused = [
      {
        schedule: {
          timeZone: "Mars/Olympus",
          periods: [{ modeName: "x", days: [1], ranges: [{ start: "08:00", end: "09:00" }] }],
        },
      },
      {
        schedule: {
          timeZone: "UTC",
          periods: [{ modeName: "x", days: [7], ranges: [{ start: "08:00", end: "09:00" }] }],
        },
      },
      {
        schedule: {
          timeZone: "UTC",
          periods: [{ modeName: "x", days: [1], ranges: [{ start: "8am", end: "09:00" }] }],
        },
      },
      { schedule: { timeZone: "UTC", periods: [] } },
      {},
    ];
    for (const body of refused) {
      const response = await home().local("PUT", "/presence/schedule", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "invalid_request" } });
    }
    expect((await home().local("GET", "/presence/schedule")).status).toBe(405);
  });
});

describe("a computer that cannot ring a phone", () => {
  it("answers not-linked without a relay identity, away or not, and ringback away works without a daemon", async () => {
    const directory = await makeTemporaryDirectory();
    try {
      const env = daemonEnv(directory.path);
      expect((await runCli(["away"], env)).stdout).toMatch(/^present: .* \(the default\)$/m);
      const on = await runCli(["away", "on"], env);
      expect(on.code).toBe(0);
      expect((await stat(join(directory.path, PRESENCE_FILE))).mode & 0o777).toBe(0o600);
      const doctor = await runCli(["doctor", "--json"], { ...env, RINGBACK_PORT: "9" });
      const presence = (JSON.parse(doctor.stdout) as DoctorCheck[]).find((check) => check.id === "presence");
      expect(presence).toMatchObject({ status: "warn", fix: "ringback login", details: { away: true } });
      expect(presence?.summary).toContain("no relay identity: the agent's own dialog shows instead");

      await using daemon = await startDaemonProcess(directory.path);
      const localKey = await readLocalKey(directory.path);
      const { answer } = askAsTheHook(daemon, localKey, bashAsk("npm test"));

      expect(await answer).toEqual({ status: 200, body: { outcome: "not-linked" } });
    } finally {
      await directory.remove();
    }
  });

  it("counts an unreadable presence.json as present", async () => {
    const directory = await makeTemporaryDirectory();
    try {
      await writeFile(join(directory.path, PRESENCE_FILE), "{not json", { mode: 0o600 });
      await using daemon = await startDaemonProcess(directory.path);
      const localKey = await readLocalKey(directory.path);

      expect((await askAsTheHook(daemon, localKey, bashAsk("ls")).answer).body).toEqual({
        outcome: "present",
      });
    } finally {
      await directory.remove();
    }
  });
});

describe("POST /permission-requests with a grace period before it rings", () => {
  const GRACE_MS = 1500;
  const graced = permissionHomeForFile({ waitMs: WAIT_MS, graceMs: GRACE_MS });

  beforeEach(async () => {
    expect((await graced().local("PUT", "/presence", { away: true })).status).toBe(200);
  });

  /** Asks as the hook and resolves once the daemon holds the ask for its grace, with the ask's event id. */
  async function heldAsk(command: string) {
    const before = graced().daemon.stderr();
    const hook = askAsTheHook(graced().daemon, graced().localKey, bashAsk(command));
    const line = await eventually(
      () =>
        graced()
          .daemon.stderr()
          .slice(before.length)
          .match(
            new RegExp(`(needs_[A-Za-z0-9_-]+): claude-code asks to use Bash; it rings in ${GRACE_MS} ms`),
          ),
      { what: "the daemon to hold the ask for its grace" },
    );
    return { hook, eventId: line[1] ?? "" };
  }

  it("never rings an ask whose hook goes away within the grace (the agent's own review answered it)", async () => {
    const { hook, eventId } = await heldAsk("terraform apply");

    hook.hangUp();

    await eventually(
      () => graced().daemon.stderr().includes(`${eventId}: claude-code's ask to use Bash ended within`),
      {
        what: "the daemon to drop the ask unrung",
      },
    );
    expect(graced().relay.postedEvents).not.toContain(eventId);
    expect(graced().relay.statusWrites).toEqual([]);
  });

  it("never rings an ask the person answers at the keyboard within the grace: the hook hears present", async () => {
    const { hook, eventId } = await heldAsk("kubectl delete pod web-1");

    expect((await graced().local("PUT", "/presence", { away: false })).status).toBe(200);

    expect(await hook.answer).toEqual({ status: 200, body: { outcome: "present" } });
    expect(graced().relay.postedEvents).not.toContain(eventId);
  });

  it("rings an ask still waiting once the grace has passed", async () => {
    const { hook, post } = await graced().ring(bashAsk("make deploy"));

    expect(post.eventId).toMatch(/^needs_/);
    hook.hangUp();
  });
});
