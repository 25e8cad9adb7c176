import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeModel } from "@ringback/fake-model";
import { PairingResult } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { createAgentHome } from "./agent-home.js";
import type { AgentSetup } from "./agent-setup.js";
import { runInstaller, runRingback } from "./installer.js";
import { startOutsideTrap } from "./outside-trap.js";
import { startRingbackDaemon } from "./ringback-daemon.js";
import { type RingbackRelay, startRingbackRelay } from "./ringback-relay.js";
import { TestDevice } from "./test-device.js";

/** Checks (20 ms apart) the daemon may take to open its link to the relay next to the agents' start-up. */
const LINK_CHECKS = 3_000;
/** Checks (20 ms apart) for what reaches the device through an agent's run on a busy machine. */
const DEVICE_CHECKS = 15_000;

/** An agent setup whose daemon has an account on the real relay, and a paired phone stand-in. */
export interface RelayedAgentSetup extends AgentSetup {
  relay: RingbackRelay;
  device: TestDevice;
  /** `ringback <args>` for this home, against the running daemon. */
  ringback(...args: string[]): Promise<string>;
}

export interface RelayedAgentSetupOptions {
  /** `RINGBACK_PERMISSION_WAIT_MS` for the daemon: how long a "needs you" ask waits (default: the daemon's). */
  permissionWaitMs?: number;
}

/**
 * What `startAgentSetup` starts (fake model, temporary home, proxy trap, real daemon), plus the real relay on
 * 127.0.0.1 with open signup, as a person sets it up: `ringback login --server <relay>` creates the account
 * (before the daemon runs, as after an install), the installer writes the hooks, the daemon starts and opens its
 * link, its briefs come from the fake model (chat completions' echo; without a model a finished turn does not
 * ring), `ringback pair --json` prints a code and key, and a phone stand-in joins with them and follows its event
 * stream. Presence is left as it starts: present.
 */
export async function startRelayedAgentSetup(
  options: RelayedAgentSetupOptions = {},
): Promise<RelayedAgentSetup> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  try {
    const model = await startFakeModel();
    closers.push(model.close);
    const trap = await startOutsideTrap();
    closers.push(trap.close);
    const home = await createAgentHome(model.url);
    closers.push(home.close);
    const relayData = await makeTemporaryDirectory("ringback-agent-clis-relay-");
    closers.push(relayData.remove);
    const relay = await startRingbackRelay(relayData.path);
    closers.push(relay.close);
    const env = { ...home.env, ...trap.proxyEnv };
    const ringback = (...args: string[]) => runRingback(args, env, home.home);
    await ringback("login", "--server", relay.url, "--name", "laptop");
    await runInstaller("install", env, home.home);
    const daemonEnv =
      options.permissionWaitMs === undefined
        ? env
        : { ...env, RINGBACK_PERMISSION_WAIT_MS: String(options.permissionWaitMs) };
    const daemon = await startRingbackDaemon(home.home, daemonEnv);
    closers.push(daemon.close);
    await eventually(() => daemon.log().includes("relay link open"), {
      what: "the daemon's relay link",
      checks: LINK_CHECKS,
    });
    await useTheFakeModelForBriefs(daemon.dataDir, model.url);
    const pairing = PairingResult.parse(JSON.parse(await ringback("pair", "--json")));
    const device = await TestDevice.join(pairing, {
      deviceName: "test phone",
      checks: DEVICE_CHECKS,
      syncChecks: DEVICE_CHECKS,
    });
    closers.push(() => device.close());
    return {
      model,
      home,
      daemon,
      trap,
      relay,
      device,
      ringback,
      context: { cwd: home.project, env, modelUrl: model.url },
      close,
      [Symbol.asyncDispose]: close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * `PUT /llm/settings` on the daemon's local port, as the settings page does, with the local key: the fake model's
 * chat completions write the briefs of finished turns.
 */
async function useTheFakeModelForBriefs(dataDir: string, modelUrl: string): Promise<void> {
  const { localPort } = JSON.parse(readFileSync(join(dataDir, "daemon.json"), "utf8")) as {
    localPort: number;
  };
  const localKey = readFileSync(join(dataDir, "local-api.key"), "utf8").trim();
  const response = await fetch(`http://127.0.0.1:${localPort}/llm/settings`, {
    method: "PUT",
    headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
    body: JSON.stringify({ baseUrl: modelUrl, apiKey: "sk-fake-model-0000", model: "fake-model" }),
  });
  if (!response.ok)
    throw new Error(`PUT /llm/settings answered ${response.status}: ${await response.text()}`);
}
