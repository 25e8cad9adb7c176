import { join } from "node:path";
import { writeFileDurably } from "@ringback/outbox";
import type { AwaySchedule, Presence } from "@ringback/protocol";
import { readTextIfExists, tightenFileMode } from "../files/private-file.js";
import type { Logger } from "../logger.js";
import { effectivePresence } from "./effective-presence.js";
import { StoredPresence } from "./stored-presence.js";

/** `{data_dir}/presence.json` (mode 600): whether this computer's agents ring a phone when they ask permission. */
export const PRESENCE_FILE = "presence.json";

/** No file: the person is at the keyboard, so an agent's ask shows its own dialog as before. */
const DEFAULT_PRESENCE: StoredPresence = { away: false, changedAt: null, changedBy: null, schedule: null };

/**
 * The file as it is now, read at every use: `ringback away` writes the file itself when no daemon runs. A file that
 * cannot be read counts as present (never a phone rung by mistake) and is logged when `log` is given.
 */
async function readStoredPresence(dataDir: string, log?: Logger): Promise<StoredPresence> {
  const path = join(dataDir, PRESENCE_FILE);
  const text = await readTextIfExists(path);
  if (text === null) return DEFAULT_PRESENCE;
  if (log) await tightenFileMode(path, log);
  const parsed = StoredPresence.safeParse(parseJson(text));
  if (parsed.success) return parsed.data;
  log?.(
    `${path} could not be read: this computer counts as present until it is set again (ringback away on|off)`,
  );
  return DEFAULT_PRESENCE;
}

/** The presence at `now`: the switch, or a ring mode's away time that started or ended since it was set. */
export async function readPresence(dataDir: string, log?: Logger, now: Date = new Date()): Promise<Presence> {
  return effectivePresence(await readStoredPresence(dataDir, log), now);
}

/** Sets the switch by hand (mode 600, durably), keeps the away times, and returns the presence it makes. */
export async function savePresence(
  dataDir: string,
  change: { away: boolean; changedBy: string },
  now: Date,
): Promise<Presence> {
  const stored = await readStoredPresence(dataDir);
  return write(
    dataDir,
    { ...stored, away: change.away, changedAt: now.toISOString(), changedBy: change.changedBy },
    now,
  );
}

/** Keeps a device's away times (null forgets them), keeps the switch, and returns the presence they make. */
export async function saveAwaySchedule(
  dataDir: string,
  change: { schedule: AwaySchedule | null; setBy: string },
  now: Date,
): Promise<Presence> {
  const stored = await readStoredPresence(dataDir);
  const schedule = change.schedule && { ...change.schedule, setAt: now.toISOString(), setBy: change.setBy };
  return write(dataDir, { ...stored, schedule }, now);
}

async function write(dataDir: string, stored: StoredPresence, now: Date): Promise<Presence> {
  await writeFileDurably(join(dataDir, PRESENCE_FILE), `${JSON.stringify(stored, null, 2)}\n`);
  return effectivePresence(stored, now);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
