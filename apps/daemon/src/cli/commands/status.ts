import { parseArgs } from "node:util";
import { ConfigFile } from "../../runtime/files/config-file.js";
import { ensureDataDir, resolveDataDir } from "../../runtime/files/data-dir.js";
import { type ComputerFleet, readAccountFleet } from "../../runtime/fleet/account-fleet.js";
import { FleetFile } from "../../runtime/fleet/fleet-file.js";
import { fleetLines } from "../../runtime/fleet/fleet-words.js";
import { currentE2eKey } from "../../runtime/keys/e2e-key.js";
import { createLogger } from "../../runtime/logger.js";
import { relayAddress } from "../../runtime/relay-address.js";

export const summary = "what every agent of your account is doing now: working, needs you, finished";
export const usage = `ringback status

Prints every computer's agents once, newest change first, as the phone shows them: "working 12 min", "needs you",
"finished 2 min ago — <the brief's headline>". This computer's agents are read here (fleet.json in the data dir,
RINGBACK_HOME); the other computers' come from the relay, sealed, and are opened with the account's key. Without
ringback login, only this computer's are shown. ringback listen shows the same list while it waits for calls.`;

/** `ringback status`: the account's fleet, once. */
export async function run(args: string[]): Promise<void> {
  parseArgs({ args, strict: true, allowPositionals: false, options: {} });
  const dataDir = resolveDataDir(process.env);
  const log = createLogger();
  await ensureDataDir(dataDir, log);
  const config = await ConfigFile.load(dataDir, log);
  const thisComputerId = config.config.relay?.deviceId ?? "this-computer";
  const local: ComputerFleet = {
    computerId: thisComputerId,
    name: null,
    state: (await FleetFile.read(dataDir)) ?? { version: 0, updatedAt: new Date().toISOString(), agents: [] },
  };
  const relay = relayAddress(config, process.env);
  let others: ComputerFleet[] = [];
  let note: string | null = null;
  if (relay?.deviceToken) {
    try {
      const account = await readAccountFleet({
        serverUrl: relay.serverUrl,
        deviceToken: relay.deviceToken,
        key: currentE2eKey(config),
      });
      others = account.filter((computer) => computer.computerId !== thisComputerId);
      local.name = account.find((computer) => computer.computerId === thisComputerId)?.name ?? null;
    } catch (error) {
      note = `The other computers are not shown: ${error instanceof Error ? error.message : String(error)}`;
    }
  } else {
    note = "Only this computer is shown: it has not logged in to a relay (ringback login).";
  }
  const lines = fleetLines([local, ...others], new Date(), thisComputerId);
  process.stdout.write(`${[...lines, ...(note ? [note] : [])].join("\n")}\n`);
}
