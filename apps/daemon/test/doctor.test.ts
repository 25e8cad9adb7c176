import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { answers, type FakeModel, startFakeModel } from "@ringback/fake-model";
import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DoctorCheck } from "../src/runtime/doctor/doctor-check.js";
import { runCli } from "./helpers/cli-process.js";
import {
  type DaemonProcess,
  daemonEnv,
  postReport,
  readDaemonConfig,
  readLocalKey,
  startDaemonProcess,
} from "./helpers/daemon-process.js";
import { eventually } from "./helpers/eventually.js";
import { pairDevice, relayCall } from "./helpers/relay-devices.js";
import { type RelayProcess, startRelayProcess } from "./helpers/relay-process.js";
import { makeTemporaryDirectory } from "./helpers/temporary-directory.js";

const MODEL_KEY = "sk-doctor-model-key-0123456789";

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

describe("ringback doctor", () => {
  it("is all ok on a computer set up as the README says, with a report that rang a phone", async () => {
    const { relay: identity } = await readDaemonConfig(home);
    const phone = await pairDevice(relay.url, identity?.deviceToken ?? "", "phone");
    const report = {
      source: "claude-code",
      sessionId: "s1",
      turnId: "t1",
      cwd: directory.path,
      text: "Done: all 9 tests pass.",
    };
    expect((await postReport(daemon, localKey, report)).status).toBe(202);
    let eventId = "";
    await eventually(async () => {
      const status = (await local("GET", "/local/status")) as {
        outbox: { lastReport: { eventId: string; state: string } | null };
      };
      eventId = status.outbox.lastReport?.eventId ?? "";
      return status.outbox.lastReport?.state === "sent";
    });
    expect(
      (
        await relayCall(relay.url, "POST", `/v1/calls/${eventId}/deliveries`, {
          token: phone.deviceToken,
          body: { outcome: "shown" },
        })
      ).status,
    ).toBe(200);

    const result = await doctor();
    expect(result.checks.map((check) => [check.id, check.status])).toEqual([
      ["hook-claude-code", "ok"],
      ["hook-codex", "ok"],
      ["daemon", "ok"],
      ["relay", "ok"],
      ["key", "ok"],
      ["model", "ok"],
      ["tracker", "ok"],
      ["last-report", "ok"],
    ]);
    expect(result.code).toBe(0);
    expect(result.byId("last-report")?.summary).toContain(
      `${eventId} was sent; its call is pending (test phone: shown)`,
    );
    expect(result.byId("daemon")?.summary).toBe(`running on 127.0.0.1:${daemon.port}`);
    for (const check of result.checks) {
      expect(Object.keys(check).sort()).toEqual(["details", "fix", "id", "status", "summary"]);
      expect(check.fix).toBeNull();
    }
    // The text form: one line per check.
    const text = await runCli(["doctor"], env());
    expect(text.stdout.trim().split("\n")).toHaveLength(8);
    expect(text.stdout).toMatch(/^ok {4}hook-claude-code {2}Claude Code: Stop hook installed$/m);
    // No secret anywhere: the local key, the model key, the tracker token, the device token, the e2e key.
    const config = await readDaemonConfig(home);
    for (const secret of [localKey, MODEL_KEY, trackerToken, config.relay?.deviceToken, config.e2e?.key]) {
      expect(secret && secret.length > 8).toBe(true);
      expect(`${result.stdout}${result.stderr}${text.stdout}${text.stderr}`).not.toContain(secret);
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
  });

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
    expect(result.byId("key")?.status).toBe("ok");
    expect(result.code).toBe(1);
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
