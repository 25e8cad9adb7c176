import { parseArgs } from "node:util";
import {
  PERMISSION_WAIT_MS,
  PRESENCE_SET_HERE,
  type Presence,
  Presence as PresenceSchema,
} from "@ringback/protocol";
import { ensureDataDir, resolveDataDir } from "../../runtime/files/data-dir.js";
import { createLogger } from "../../runtime/logger.js";
import { readPresence, savePresence } from "../../runtime/presence/presence-file.js";
import { describeAwayTimes, describePresence } from "../../runtime/presence/presence-words.js";
import { callRunningDaemon } from "../../runtime/relay-link/local-daemon-client.js";
import { StartError } from "../../runtime/start-error.js";

export const summary = "say whether you are away: an agent asking permission then rings your phones";
export const usage = `ringback away [on|off]

  ringback away       whether this computer is away, since when and who set it
  ringback away on    away: an agent that asks permission (run a command, edit a file...) rings your phones, and
                      Allow or Deny there lets it go on; with no answer in ${PERMISSION_WAIT_MS / 60_000} minutes its own dialog follows
  ringback away off   present (the default): an agent's permission ask shows its own dialog, no phone rings
The phones' "I'm away" switch sets the same thing, and so does a ring mode marked "Away from my computers in
these times" on a phone: each start or end of its times counts as a change, and the latest change wins (a switch set
during an away time holds until that time ends). Kept in presence.json in the data dir (RINGBACK_HOME).`;

/** `ringback away`: through the running daemon when there is one, else presence.json directly. */
export async function run(args: string[]): Promise<void> {
  const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} });
  const [setting, ...rest] = positionals;
  const dataDir = resolveDataDir(process.env);
  if (setting === undefined) {
    const presence = await readPresence(dataDir);
    process.stdout.write(`${[describePresence(presence), ...describeAwayTimes(presence)].join("\n")}\n`);
    return;
  }
  if ((setting !== "on" && setting !== "off") || rest.length > 0) {
    throw new StartError(`ringback away takes "on", "off" or nothing\n${usage}`);
  }
  const away = setting === "on";
  const presence =
    (await callRunningDaemon(dataDir, process.env, "/presence", { away }, PresenceSchema, "PUT")) ??
    (await saveWithoutDaemon(dataDir, away));
  process.stdout.write(`${describePresence(presence)}\n`);
}

async function saveWithoutDaemon(dataDir: string, away: boolean): Promise<Presence> {
  await ensureDataDir(dataDir, createLogger());
  return savePresence(dataDir, { away, changedBy: PRESENCE_SET_HERE }, new Date());
}
