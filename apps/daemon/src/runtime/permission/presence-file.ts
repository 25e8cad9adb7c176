import { join } from "node:path";
import { writeFileDurably } from "@ringback/outbox";
import { Presence } from "@ringback/protocol";
import type { Logger } from "../logger.js";
import { readTextIfExists, tightenFileMode } from "../private-file.js";

/** `{data_dir}/presence.json` (mode 600): whether this computer's agents ring a phone when they ask permission. */
export const PRESENCE_FILE = "presence.json";

/** No file: the person is at the keyboard, so an agent's ask shows its own dialog as before. */
const DEFAULT_PRESENCE: Presence = { away: false, changedAt: null, changedBy: null };

/**
 * The presence as the file says now, read at every use: `ringback away` writes the file itself when no daemon runs.
 * A file that cannot be read counts as present (never a phone rung by mistake) and is logged when `log` is given.
 */
export async function readPresence(dataDir: string, log?: Logger): Promise<Presence> {
  const path = join(dataDir, PRESENCE_FILE);
  const text = await readTextIfExists(path);
  if (text === null) return DEFAULT_PRESENCE;
  if (log) await tightenFileMode(path, log);
  const parsed = Presence.safeParse(parseJson(text));
  if (parsed.success) return parsed.data;
  log?.(
    `${path} could not be read: this computer counts as present until it is set again (ringback away on|off)`,
  );
  return DEFAULT_PRESENCE;
}

/** Writes the presence (mode 600, durably) and returns it. */
export async function savePresence(
  dataDir: string,
  change: { away: boolean; changedBy: string },
  now: Date,
): Promise<Presence> {
  const presence: Presence = { away: change.away, changedAt: now.toISOString(), changedBy: change.changedBy };
  await writeFileDurably(join(dataDir, PRESENCE_FILE), `${JSON.stringify(presence, null, 2)}\n`);
  return presence;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
