import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { aad, generateKey, openJson, openString, sealJson, sealString } from "@ringback/e2e-crypto";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { ChildRelay } from "./support/child-relay.js";
import { DaemonClient } from "./support/daemon-client.js";
import { requestAt, signUp } from "./support/in-process-relay.js";
import { SseClient } from "./support/sse-client.js";

const marker = (purpose: string) => `RB-MARKER-${purpose}-${randomUUID()}`;

describe("invariant: the relay stores and logs no plaintext", () => {
  it("leaves no report, brief, reply, settings or secret text in relay.db, its WAL or stderr", async () => {
    await using dir = await makeTemporaryDirectory();
    const markers = {
      report: marker("report"),
      brief: marker("brief"),
      trackerReport: marker("tracker-report"),
      settingsRequest: marker("settings-request"),
      settingsResult: marker("settings-result"),
      reply: marker("reply"),
      replyError: marker("reply-error"),
    };
    const key = generateKey();
    await using relay = await ChildRelay.start({ dataDir: dir.path });
    const request = requestAt(relay.url);

    const claimCode = relay.claimCode;
    if (!claimCode) throw new Error("no claim code printed");
    const computer = await signUp(request, "computer", claimCode);
    const pairingCode = (await request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body
      .code;
    const phone = (
      await request("POST", "/v1/pairing-codes/redeem", {
        body: { code: pairingCode, deviceName: "phone", deviceKind: "phone" },
      })
    ).body;
    using stream = new SseClient(relay.url, phone.deviceToken);
    await stream.waitForSynced();
    await using daemon = await DaemonClient.connect(relay.url, computer.deviceToken);

    // The daemon posts a local report and a tracker report.
    const report = { report: { eventId: "ev-1", text: markers.report }, brief: { spoken: markers.brief } };
    const occurredAt = new Date().toISOString();
    await request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: {
        eventId: "ev-1",
        source: "codex",
        occurredAt,
        sealed: await sealJson(key, aad.report("ev-1"), report),
      },
    });
    const trackerSealed = await sealJson(key, aad.report("task-1"), {
      report: { text: markers.trackerReport },
    });
    await request("POST", "/v1/daemon/tracker-reports", {
      token: computer.deviceToken,
      body: { eventId: "task-1", source: "tracker", taskId: "task-1", occurredAt, sealed: trackerSealed },
    });
    const call = await stream.waitFor("call", (d) => d.eventId === "ev-1");
    expect(await openJson(key, aad.report("ev-1"), call.data.sealed)).toEqual(report);
    // The phone says it rang: a delivery record (ids, the device's name, the outcome, a time) and its SSE frame.
    await request("POST", "/v1/calls/ev-1/deliveries", {
      token: phone.deviceToken,
      body: { outcome: "shown" },
    });
    expect((await stream.waitFor("call-delivery", (d) => d.eventId === "ev-1")).data.outcome).toBe("shown");

    // The phone answers, changes a setting through the relay, hangs up and replies.
    await request("POST", "/v1/calls/ev-1/status", {
      token: phone.deviceToken,
      body: { status: "answered" },
    });
    const settingsRequest = {
      method: "PUT",
      path: "/llm/settings",
      body: { apiKey: markers.settingsRequest },
    };
    const settingsCall = request("POST", `/v1/devices/${computer.deviceId}/settings`, {
      token: phone.deviceToken,
      body: {
        requestId: "req-1",
        sealed: await sealJson(key, aad.settingsRequest("req-1"), settingsRequest),
      },
    });
    const relayed = await daemon.waitFor("settings-request");
    expect(await openJson(key, aad.settingsRequest("req-1"), relayed.sealed)).toEqual(settingsRequest);
    const settingsResult = { status: 200, body: { channel: { keyHint: markers.settingsResult } } };
    daemon.send({
      type: "settings-result",
      requestId: "req-1",
      sealed: await sealJson(key, aad.settingsResult("req-1"), settingsResult),
    });
    const settingsAnswer = await settingsCall;
    expect(await openJson(key, aad.settingsResult("req-1"), settingsAnswer.body.sealed)).toEqual(
      settingsResult,
    );
    await request("POST", "/v1/calls/ev-1/status", { token: phone.deviceToken, body: { status: "ended" } });
    await request("POST", "/v1/calls/ev-1/replies", {
      token: phone.deviceToken,
      body: { replyId: "reply-1", sealed: await sealString(key, aad.reply("ev-1"), markers.reply) },
    });
    const reply = await daemon.waitFor("reply");
    expect(await openString(key, aad.reply("ev-1"), reply.sealed)).toBe(markers.reply);
    daemon.send({
      type: "reply-status",
      replyId: "reply-1",
      status: "failed",
      sealedReason: await sealString(key, aad.replyError("reply-1"), markers.replyError),
    });
    const failed = await stream.waitFor("reply-status", (d) => d.status === "failed");
    expect(await openString(key, aad.replyError("reply-1"), failed.data.sealedReason)).toBe(
      markers.replyError,
    );

    const secrets = [...Object.values(markers), key, computer.deviceToken, phone.deviceToken];
    const databaseFiles = ["relay.db", "relay.db-wal"].map((name) => join(dir.path, name)).filter(existsSync);
    expect(databaseFiles).toContain(join(dir.path, "relay.db-wal"));
    const scan = () => {
      for (const file of databaseFiles.filter(existsSync)) {
        const bytes = readFileSync(file);
        for (const secret of secrets) expect(bytes.includes(secret), `${secret} in ${file}`).toBe(false);
      }
    };
    scan();
    // The scan can see what is there: the still-ringing tracker call's ciphertext is in the files.
    expect(databaseFiles.some((file) => readFileSync(file).includes(trackerSealed))).toBe(true);
    for (const secret of [...secrets, pairingCode]) expect(relay.stderr, secret).not.toContain(secret);
    expect(relay.stderr.split(claimCode)).toHaveLength(2);
    expect(relay.stderr).toContain("event stored event=ev-1");
    expect(relay.stderr).toContain(`call shown event=ev-1 device=${phone.deviceId}`);

    await relay.stop("SIGTERM");
    scan();
  });
});
