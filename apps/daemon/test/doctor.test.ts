import { chmod, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sealReply, sealSettingsRequest } from "@ringback/client";
import { type E2eKey, generateKey, keyId, sealDeviceName } from "@ringback/e2e-crypto";
import { answers, type FakeModel, startFakeModel } from "@ringback/fake-model";
import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { DoctorCheck } from "../src/runtime/doctor/doctor-check.js";
import { CONFIG_FILE } from "../src/runtime/files/config-file.js";
import { LAST_SEALED_MESSAGE_FILE } from "../src/runtime/keys/last-sealed-message.js";
import { LOCAL_KEY_FILE } from "../src/runtime/keys/local-key.js";
import {
  type DaemonProcess,
  daemonEnv,
  postReport,
  readDaemonConfig,
  readDaemonKey,
  readLocalKey,
  runCli,
  startDaemonProcess,
} from "./helpers/daemon-process.js";
import { pairDevice, relayCall } from "./helpers/relay-devices.js";
import { type RelayProcess, startRelayProcess } from "./helpers/relay-process.js";

const MODEL_KEY = "sk-doctor-model-key-0123456789";
const SAME_PASSPHRASE =
  "set the same passphrase in the app's Settings › Encryption and on this computer: ringback key";

/**
 * One computer set up as a user would (relay, `ringback login`, `ringback run`, `ringback install`, a model and a
 * tracker configured, a phone paired), then each thing broken for real, one at a time, and `ringback doctor` asked.
 */
let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let home: string;
let relay: RelayProcess;
let daemon: DaemonProcess;
let model: FakeModel;
let tracker: FakeMultica;
let trackerToken: string;
let localKey: string;
let isModelClosed = false;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return daemonEnv(home, {
    RINGBACK_PORT: String(daemon.port),
    DAEMON_TRACKER_API_URL: tracker.url,
    ...extra,
  });
}

async function doctor(extra: Record<string, string> = {}) {
  const result = await runCli(["doctor", "--json"], env(extra));
  const checks = JSON.parse(result.stdout) as DoctorCheck[];
  return { ...result, checks, byId: (id: string) => checks.find((check) => check.id === id) };
}

async function local(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

beforeAll(async () => {
  directory = await makeTemporaryDirectory("ringback-doctor-");
  home = join(directory.path, "home");
  relay = await startRelayProcess({ dataDir: join(directory.path, "relay"), args: ["--open-signup"] });
  model = await startFakeModel({ apiKey: MODEL_KEY });
  tracker = await startFakeMultica();
  const user = tracker.state.addUser({ name: "Ada" });
  const workspace = tracker.state.addWorkspace({ name: "Ringback", slug: "ringback", members: [user.id] });
  trackerToken = user.token;
  expect((await runCli(["login", "--server", relay.url, "--name", "desk"], daemonEnv(home))).code).toBe(0);
  daemon = await startDaemonProcess(home, { DAEMON_TRACKER_API_URL: tracker.url });
  localKey = await readLocalKey(home);
  expect((await runCli(["install", "--no-service"], env())).code).toBe(0);
  await local("PUT", "/llm/settings", { baseUrl: model.url, apiKey: MODEL_KEY, model: "fake-model" });
  await local("PUT", "/tracker/settings", { token: trackerToken, workspaceIds: [workspace.id] });
}, 60_000);

afterAll(async () => {
  await daemon?.kill();
  await relay?.stop();
  if (!isModelClosed) await model?.close();
  await tracker?.close();
  await directory?.remove();
});

/** Posts an agent report to the daemon and waits until its outbox has sent it to the relay; its event id. */
async function reportSent(sessionId: string, text: string): Promise<string> {
  const report = { source: "claude-code", sessionId, turnId: "t1", cwd: directory.path, text };
  expect((await postReport(daemon, localKey, report)).status).toBe(202);
  let eventId = "";
  await eventually(async () => {
    const status = (await local("GET", "/local/status")) as {
      outbox: { lastReport: { eventId: string; state: string } | null };
    };
    eventId = status.outbox.lastReport?.eventId ?? "";
    return status.outbox.lastReport?.state === "sent";
  });
  return eventId;
}

// Before doctor's checks, which expect the model set up above: each test here puts it back.
describe("ringback model, on the same computer", () => {
  const OTHER_KEY = "sk-other-model-key-9876543210";
  afterEach(async () => {
    await local("PUT", "/llm/settings", {
      baseUrl: model.url,
      apiKey: MODEL_KEY,
      model: "fake-model",
      timeoutMs: null,
      maxOutputTokens: null,
    });
  });

  it("sets the model with its key from stdin (never an argument) and the output cap, which the test call sends", async () => {
    const other = await startFakeModel({ apiKey: OTHER_KEY });
    onTestFinished(() => other.close());
    const address = ["--address", other.url, "--model", "other-model"];

    const asArgument = await runCli(["model", "set", ...address, "--key", OTHER_KEY], env());
    expect(asArgument.code).toBe(1);
    expect(asArgument.stderr).toContain("the API key is never an argument");

    const set = await runCli(["model", "set", ...address], env(), `${OTHER_KEY}\n`);
    expect(set.stderr).toBe("");
    expect(set.code).toBe(0);
    expect(set.stdout).toContain(`other-model at ${other.url} (local), key ****3210`);
    expect(set.stdout).toContain("output cap: sized to each report (the local default)");

    const capped = await runCli(["model", "limits", "--output-tokens", "2048"], env());
    expect(capped.stdout).toContain("output cap: 2048 tokens");
    const tested = await runCli(["model", "test"], env());
    expect(tested.stderr).toContain(`testing other-model at ${other.url}: the same call as a brief`);
    expect(tested.stdout).toContain("other-model wrote a test brief");
    expect(other.chatRequests().at(-1)?.body).toMatchObject({ max_tokens: 2048 });
    for (const output of [asArgument, set, capped, tested])
      expect(`${output.stdout}${output.stderr}`).not.toContain(OTHER_KEY);
  });

  it("`ringback model test` says each step the daemon reached while it waits: the server answered, the first token", async () => {
    const slow = await startFakeModel({ apiKey: MODEL_KEY });
    onTestFinished(() => slow.close());
    // Each step lasts seconds, longer than the command's one-second question to the daemon.
    slow.setDefaultAnswer(answers.streamed({ firstPieceMs: 2500, pieceMs: 700, pieceChars: 150 }));
    await runCli(["model", "set", "--address", slow.url, "--model", "slow-model"], env(), MODEL_KEY);

    const result = await runCli(["model", "test"], env());

    expect(result.code).toBe(0);
    const answered = result.stderr.search(
      /slow-model's server answered after \d+\.\d s; waiting for its first token/,
    );
    const firstToken = result.stderr.search(/first token after \d+\.\d s: slow-model is writing the brief/);
    expect(answered, result.stderr).toBeGreaterThan(-1);
    expect(firstToken, result.stderr).toBeGreaterThan(answered);
    expect(result.stdout).toContain("slow-model wrote a test brief");
  });

  it("`ringback model test` waits for the daemon's own limit and shows its verdict on a model that hangs", async () => {
    const hanging = await startFakeModel({ apiKey: MODEL_KEY });
    onTestFinished(() => hanging.close());
    hanging.setDefaultAnswer(answers.hang());
    await runCli(["model", "set", "--address", hanging.url, "--model", "hung-model"], env(), MODEL_KEY);
    expect((await runCli(["model", "limits", "--timeout", "1"], env())).stdout).toContain(
      "overall limit per call: 1 s",
    );

    const result = await runCli(["model", "test"], env());

    expect(result.code).toBe(1);
    expect(result.stderr).toContain("within its overall limit of 1 s");
    expect(result.stdout).toMatch(
      /^hung-model does not write a brief: The language model did not finish within 1\.0 s \(the overall limit\)/,
    );
  });
});

describe("ringback doctor", () => {
  it("is all ok on a computer set up as the README says, with a report that rang a phone", async () => {
    const { relay: identity } = await readDaemonConfig(home);
    // The phone's name is sealed with the account's key; a tablet's under another key, which doctor cannot open.
    const phoneName = await sealDeviceName(await readDaemonKey(home), "Zoë's phone");
    const phone = await pairDevice(relay.url, identity?.deviceToken ?? "", "phone", phoneName);
    const hidden = await sealDeviceName(generateKey(), "Hidden tablet");
    const tablet = await pairDevice(relay.url, identity?.deviceToken ?? "", "browser", hidden);
    const eventId = await reportSent("s1", "Done: all 9 tests pass.");
    for (const device of [phone, tablet]) {
      expect(
        (
          await relayCall(relay.url, "POST", `/v1/calls/${eventId}/deliveries`, {
            token: device.deviceToken,
            body: { outcome: "shown" },
          })
        ).status,
      ).toBe(200);
    }

    const result = await doctor();
    expect(result.checks.map((check) => [check.id, check.status])).toEqual([
      ["hook-claude-code", "ok"],
      ["permission-hook-claude-code", "ok"],
      ["hook-codex", "ok"],
      ["permission-hook-codex", "ok"],
      ["daemon", "ok"],
      ["relay", "ok"],
      ["push", "ok"],
      ["key", "ok"],
      ["model", "ok"],
      ["tracker", "ok"],
      ["last-report", "ok"],
      ["presence", "ok"],
      ["escalation", "ok"],
      ["secret-files", "ok"],
    ]);
    expect(result.code).toBe(0);
    // No display or session in the test's environment: doctor says idle time cannot be read, and the rule it keeps.
    expect(result.byId("escalation")?.summary).toBe(
      "ladder: the push again only (no channel); away by idle time: cannot read it (the daemon has no X display (DISPLAY) and no login session (XDG_SESSION_ID)); the switch and the ring modes alone set away",
    );
    expect(result.byId("last-report")?.summary).toContain(
      `${eventId} was sent; its call is pending (Zoë's phone: shown, a browser: shown)`,
    );
    expect(result.byId("daemon")?.summary).toBe(`running on 127.0.0.1:${daemon.port}`);
    // No device has sent a sealed settings request or reply yet.
    expect(result.byId("key")?.details).toMatchObject({ lastSealedMessage: null });
    expect(result.byId("key")?.details.devicesKeyId).toContain("not known yet");
    for (const check of result.checks) {
      expect(Object.keys(check).sort()).toEqual(["details", "fix", "id", "status", "summary"]);
      expect(check.fix).toBeNull();
    }
    // The text form: one line per check.
    const text = await runCli(["doctor"], env());
    expect(text.stdout.trim().split("\n")).toHaveLength(14);
    // The relay's default push contact is an example address: Apple takes it, but it reaches nobody.
    expect(result.byId("push")?.summary).toContain("mailto:ringback-relay@example.org, which reaches nobody");
    expect(text.stdout).toMatch(
      /^ok {4}presence {21}present: an agent asking permission shows its own dialog here \(the default\)$/m,
    );
    expect(text.stdout).toMatch(/^ok {4}hook-claude-code {13}Claude Code: Stop hook installed$/m);
    // No secret anywhere: the local key, the model key, the tracker token, the device token, the e2e key.
    const config = await readDaemonConfig(home);
    for (const secret of [localKey, MODEL_KEY, trackerToken, config.relay?.deviceToken, config.e2e?.key]) {
      expect(secret && secret.length > 8).toBe(true);
      expect(`${result.stdout}${result.stderr}${text.stdout}${text.stderr}`).not.toContain(secret);
    }
  }, 30_000);

  it("fails on the key when a device's last sealed message used another key, and is ok when it used the same", async () => {
    const { relay: identity } = await readDaemonConfig(home);
    const browser = await pairDevice(relay.url, identity?.deviceToken ?? "", "browser");
    const computerKey = await readDaemonKey(home);
    const computerKeyId = await keyId(computerKey);
    const otherKey = generateKey();
    const otherKeyId = await keyId(otherKey);
    const sealedTexts: string[] = [];
    /** A relayed settings request from the browser, sealed as the app seals it (with `key`). */
    const settingsRequest = async (key: E2eKey) => {
      const { requestId, sealed } = await sealSettingsRequest(key, identity?.deviceId ?? "", {
        method: "GET",
        path: "/llm/settings",
      });
      sealedTexts.push(sealed);
      return relayCall(relay.url, "POST", `/v1/devices/${identity?.deviceId}/settings`, {
        token: browser.deviceToken,
        body: { requestId, sealed },
      });
    };
    const lastSealedMessage = async () =>
      JSON.parse(await readFile(join(home, LAST_SEALED_MESSAGE_FILE), "utf8").catch(() => '{"messages":{}}'))
        .messages.latest as { kind: string; keyId: string } | undefined;
    /** The daemon keeps the key id in the background: waits until its file names `id` for `kind`. */
    const keptAs = (kind: string, id: string) =>
      eventually(async () => {
        const latest = await lastSealedMessage();
        return latest?.kind === kind && latest.keyId === id;
      });

    expect(await settingsRequest(otherKey)).toMatchObject({
      status: 400,
      body: { error: { code: "undecryptable_request" } },
    });
    await keptAs("settings-request", otherKeyId);
    const other = await doctor();
    expect(other.byId("key")).toMatchObject({
      status: "fail",
      fix: SAME_PASSPHRASE,
      details: {
        keyId: computerKeyId,
        devicesKeyId: otherKeyId,
        lastSealedMessage: { keyId: otherKeyId, kind: "settings-request", isOpened: false },
      },
    });
    expect(other.byId("key")?.summary).toMatch(
      new RegExp(
        `^the devices' last sealed message \\(a settings request, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\) ` +
          `used key ${otherKeyId}, this computer's is ${computerKeyId} \\(generated\\)`,
      ),
    );
    expect(other.code).toBe(1);
    const text = await runCli(["doctor"], env());
    expect(text.stdout).toMatch(
      /^fail {2}key {26}the devices' last sealed message .* — fix: set the same passphrase/m,
    );

    // A reply sealed with another key tells the same.
    const eventId = await reportSent("s2", "Done.");
    const { sealed: reply } = await sealReply(otherKey, {
      computerId: identity?.deviceId ?? "",
      eventId,
      replyId: "doctor-reply-1",
      text: "Go on.",
    });
    sealedTexts.push(reply);
    expect(
      (
        await relayCall(relay.url, "POST", `/v1/calls/${eventId}/replies`, {
          token: browser.deviceToken,
          body: { replyId: "doctor-reply-1", sealed: reply },
        })
      ).status,
    ).toBe(202);
    await keptAs("reply", otherKeyId);
    const otherReply = await doctor();
    expect(otherReply.byId("key")).toMatchObject({ status: "fail", fix: SAME_PASSPHRASE });
    expect(otherReply.byId("key")?.summary).toContain(`(a reply, `);
    expect(otherReply.byId("key")?.summary).toContain(`used key ${otherKeyId}`);

    expect((await settingsRequest(computerKey)).status).toBe(200);
    await keptAs("settings-request", computerKeyId);
    const same = await doctor();
    expect(same.byId("key")).toMatchObject({
      status: "ok",
      fix: null,
      details: {
        keyId: computerKeyId,
        devicesKeyId: computerKeyId,
        lastSealedMessage: { keyId: computerKeyId, kind: "settings-request", isOpened: true },
      },
    });
    expect(same.byId("key")?.summary).toMatch(
      new RegExp(
        `^end-to-end key ${computerKeyId} \\(generated\\); the devices' last sealed message ` +
          `\\(a settings request, [^)]+ UTC\\) used the same key$`,
      ),
    );
    expect(same.code).toBe(0);

    // The file is private and holds the key id, the kind, the time and whether it opened: no sealed text.
    const path = join(home, LAST_SEALED_MESSAGE_FILE);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({
      version: 1,
      messages: {
        latest: {
          keyId: computerKeyId,
          kind: "settings-request",
          receivedAt: expect.any(String),
          isOpened: true,
        },
      },
    });
    for (const sealed of sealedTexts) {
      const ciphertext = sealed.split(".")[3] ?? "";
      expect(ciphertext.length).toBeGreaterThan(16);
      expect(`${daemon.stdout()}${daemon.stderr()}`).not.toContain(ciphertext);
    }
  }, 30_000);

  it("fails on the model when it does not answer with a brief, and when it is down", async () => {
    model.setDefaultAnswer(answers.invalidJson());
    const garbage = await doctor();
    expect(garbage.byId("model")).toMatchObject({
      status: "fail",
      fix: "the app: Settings › Your computer › Language model for briefs",
    });
    expect(garbage.byId("model")?.summary).toContain("does not write a brief");
    expect(garbage.code).toBe(1);

    await model.close();
    isModelClosed = true;
    const down = await doctor();
    expect(down.byId("model")?.status).toBe("fail");
    expect(down.byId("model")?.summary).toContain(`fake-model at ${model.url} does not write a brief`);
  });

  it("fails on the tracker when the tracker rejects the token", async () => {
    const user = tracker.state.userByToken(trackerToken);
    if (!user) throw new Error("no user");
    user.token = "revoked-token-000000";
    try {
      const result = await doctor();
      expect(result.byId("tracker")).toMatchObject({ status: "fail" });
      expect(result.byId("tracker")?.summary).toContain("rejects the token");
      expect(result.code).toBe(1);
    } finally {
      user.token = trackerToken;
    }
  });

  it("tells a hook missing for one agent (warn), a stale Codex trust record (fail) and no hook at all (fail)", async () => {
    const codexHooks = join(home, ".codex", "hooks.json");
    const configToml = join(home, ".codex", "config.toml");
    const tomlText = await readFile(configToml, "utf8");
    try {
      await writeFile(
        configToml,
        tomlText.replace(/trusted_hash = "sha256:[0-9a-f]+"/, 'trusted_hash = "sha256:0"'),
      );
      const stale = await doctor();
      expect(stale.byId("hook-codex")).toMatchObject({ status: "fail", fix: "ringback install" });
      expect(stale.byId("hook-codex")?.summary).toContain("trust record");

      // A Claude Code settings file with the Stop hook but without the permission hook (an older install).
      const claudeSettings = join(home, ".claude", "settings.json");
      const settings = JSON.parse(await readFile(claudeSettings, "utf8"));
      delete settings.hooks.PermissionRequest;
      await writeFile(claudeSettings, JSON.stringify(settings));
      const olderInstall = await doctor();
      expect(olderInstall.byId("hook-claude-code")?.status).toBe("ok");
      expect(olderInstall.byId("permission-hook-claude-code")).toMatchObject({
        status: "warn",
        fix: "ringback install",
      });
      expect(olderInstall.byId("permission-hook-claude-code")?.summary).toContain(
        "never rings as a needs-you call",
      );

      await rm(codexHooks);
      const onlyClaude = await doctor();
      expect(onlyClaude.byId("hook-codex")?.status).toBe("warn");
      expect(onlyClaude.byId("hook-claude-code")?.status).toBe("ok");

      expect((await runCli(["uninstall", "--no-service"], env())).code).toBe(0);
      const none = await doctor();
      expect(none.byId("hook-claude-code")).toMatchObject({ status: "fail", fix: "ringback install" });
      expect(none.byId("hook-codex")?.status).toBe("fail");
      expect(none.code).toBe(1);
    } finally {
      expect((await runCli(["install", "--no-service"], env())).code).toBe(0);
    }
    expect((await doctor()).byId("hook-codex")?.status).toBe("ok");
    // Eight CLI processes (five doctors, two installs, an uninstall): about 26 s on a busy 2-core machine.
  }, 60_000);

  it("fails on the relay when it is down, naming the address", async () => {
    await relay.stop();
    const result = await doctor();
    expect(result.byId("relay")).toMatchObject({ status: "fail" });
    expect(result.byId("relay")?.summary).toContain(`the relay at ${relay.url} cannot be reached`);
    expect(result.code).toBe(1);
  });

  it("fails on the daemon when it is not running, and does not guess what it would say", async () => {
    await daemon.stop();
    const result = await doctor();
    expect(result.byId("daemon")).toMatchObject({
      status: "fail",
      fix: "ringback run (or ringback install for a user service)",
    });
    expect(result.byId("daemon")?.summary).toBe(`no daemon answers on 127.0.0.1:${daemon.port}`);
    for (const id of ["model", "tracker", "last-report"])
      expect(result.byId(id)).toMatchObject({
        status: "warn",
        summary: "not checked: the daemon is not running",
      });
    // What the devices' last sealed message used is kept in the data dir: known with the daemon down.
    expect(result.byId("key")?.status).toBe("ok");
    expect(result.byId("key")?.summary).toContain("the devices' last sealed message (a settings request, ");
    expect(result.byId("key")?.summary).toContain("used the same key");
    expect(result.code).toBe(1);
  });

  it("warns, naming each file and its chmod 600, when a file holding a secret is readable by others", async () => {
    const configPath = join(home, CONFIG_FILE);
    const keyPath = join(home, LOCAL_KEY_FILE);
    await chmod(configPath, 0o644);
    await chmod(keyPath, 0o640);
    try {
      const result = await doctor();
      const check = result.byId("secret-files");
      expect(check).toMatchObject({ status: "warn", fix: `chmod 600 ${configPath} ${keyPath}` });
      expect(check?.summary).toContain(
        `${configPath} (mode 644, holds the end-to-end key, relay device token`,
      );
      expect(check?.summary).toContain(`${keyPath} (mode 640, holds the local API key)`);
      const text = await runCli(["doctor"], env());
      expect(text.stdout).toContain(`— fix: chmod 600 ${configPath} ${keyPath}`);
    } finally {
      await chmod(configPath, 0o600);
      await chmod(keyPath, 0o600);
    }
    expect((await doctor()).byId("secret-files")?.status).toBe("ok");
  });

  it("fails on a data dir where the daemon never ran: no key, no daemon, no relay account", async () => {
    const fresh = join(directory.path, "fresh");
    const result = await runCli(["doctor", "--json"], daemonEnv(fresh, { RINGBACK_PORT: "9" }));
    const checks = JSON.parse(result.stdout) as DoctorCheck[];
    const byId = (id: string) => checks.find((check) => check.id === id);
    expect(byId("key")).toMatchObject({ status: "fail", fix: "ringback run (or ringback key)" });
    expect(byId("daemon")?.summary).toContain("has no local key: the daemon has never run here");
    expect(byId("relay")?.summary).toContain("has not joined a relay account");
    expect(result.code).toBe(1);
  });
});
