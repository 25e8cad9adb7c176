import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { joinWithLink } from "@ringback/client";
import { PairingResult } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FleetWatch } from "../src/listen/fleet-watch.js";
import {
  type DaemonProcess,
  daemonEnv,
  runCli,
  setLocalPort,
  startDaemonProcess,
} from "./helpers/daemon-process.js";
import { runHookToEnd } from "./helpers/hook-process.js";
import { type RelayProcess, startRelayProcess } from "./helpers/relay-process.js";

/**
 * `ringback status` and the terminal companion's fleet list, against the real relay: the hook's turn start reaches
 * the relay sealed, a device reads it back with the account's key, and the relay's files never hold an agent's
 * project or what it is doing (a canary scan).
 */
const CHECKS = { checks: 1_500 };
const CANARY_PROJECT = "canary-project-8e41";
const CANARY_COMMAND = "CANARY-COMMAND-c3d7";

let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let home: string;
let relay: RelayProcess;
let daemon: DaemonProcess;
let terminalWatch: FleetWatch;
let terminalLists: string[][];

beforeAll(async () => {
  directory = await makeTemporaryDirectory("ringback-fleet-status-");
  home = join(directory.path, "home");
  relay = await startRelayProcess({ dataDir: join(directory.path, "relay"), args: ["--open-signup"] });
  expect((await runCli(["login", "--server", relay.url, "--name", "laptop"], daemonEnv(home))).code).toBe(0);
  daemon = await startDaemonProcess(home, { RINGBACK_PERMISSION_GRACE_MS: "0" });
  await setLocalPort(home, daemon.port);
  await eventually(() => daemon.stderr().includes("relay link open"), CHECKS);
  const pair = await runCli(["pair", "--json"], daemonEnv(home));
  const joined = await joinWithLink(PairingResult.parse(JSON.parse(pair.stdout)).link, {
    deviceName: "Terminal",
    deviceKind: "phone",
  });
  terminalLists = [];
  terminalWatch = new FleetWatch({
    relay: { serverUrl: relay.url, deviceToken: joined.identity.deviceToken, key: joined.key },
    onChange: (lines) => terminalLists.push(lines),
    intervalMs: 200,
  });
  terminalWatch.start();
}, 120_000);

afterAll(async () => {
  terminalWatch?.stop();
  await daemon?.kill();
  await relay?.stop();
  await directory?.remove();
});

describe("the fleet in the terminal", () => {
  it("lists an agent working from its turn's start, on this computer and on a device reading the relay", async () => {
    const started = await runHookToEnd("claude-code", home, {
      session_id: "session-status",
      cwd: `/home/ada/${CANARY_PROJECT}`,
      hook_event_name: "UserPromptSubmit",
      prompt: "go",
    });
    expect(started.code).toBe(0);

    const status = await runCli(["status"], daemonEnv(home));
    expect(status.code).toBe(0);
    expect(status.stdout).toBe(
      `Agents (1):\n  ${CANARY_PROJECT} · Claude Code on laptop (this computer): working 0 min\n`,
    );
    await eventually(
      () => terminalLists.at(-1)?.includes(`  ${CANARY_PROJECT} · Claude Code on laptop: working 0 min`),
      { what: "the terminal's list with the working agent", ...CHECKS },
    );
  });

  it("lists it as needing you while its ask rings, then finished, in the same words", async () => {
    expect((await runCli(["away", "on"], daemonEnv(home))).code).toBe(0);
    const asking = fetch(`${daemon.url}/permission-requests`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${(await readFile(join(home, "local-api.key"), "utf8")).trim()}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        agent: "claude-code",
        sessionId: "session-status",
        cwd: `/home/ada/${CANARY_PROJECT}`,
        toolName: "Bash",
        toolInput: { command: `echo ${CANARY_COMMAND}` },
        lastWords: null,
      }),
    });
    await eventually(
      () =>
        terminalLists
          .at(-1)
          ?.includes(`  ${CANARY_PROJECT} · Claude Code on laptop: needs you: run echo ${CANARY_COMMAND}`),
      { what: "the terminal's list with the agent needing you", ...CHECKS },
    );
    expect((await runCli(["away", "off"], daemonEnv(home))).code).toBe(0);
    expect((await (await asking).json()) as unknown).toEqual({ outcome: "present" });

    const stopped = await runHookToEnd("claude-code", home, {
      session_id: "session-status",
      cwd: `/home/ada/${CANARY_PROJECT}`,
      prompt_id: "p1",
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: "Done.",
    });
    expect(stopped.code).toBe(0);
    await eventually(
      () => terminalLists.at(-1)?.includes(`  ${CANARY_PROJECT} · Claude Code on laptop: finished 0 min ago`),
      { what: "the terminal's list with the agent finished", ...CHECKS },
    );
    const status = await runCli(["status"], daemonEnv(home));
    expect(status.stdout).toContain(
      `${CANARY_PROJECT} · Claude Code on laptop (this computer): finished 0 min ago`,
    );
  });

  it("never leaves an agent's project or what it asked in the relay's files or log", async () => {
    const relayDir = join(directory.path, "relay");
    const entries = await readdir(relayDir, { recursive: true, withFileTypes: true });
    const files = await Promise.all(
      entries.filter((entry) => entry.isFile()).map((entry) => readFile(join(entry.parentPath, entry.name))),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const canary of [CANARY_PROJECT, CANARY_COMMAND, "session-status"]) {
      for (const bytes of files) expect(bytes.includes(canary)).toBe(false);
      expect(relay.stderr()).not.toContain(canary);
    }
  });
});
