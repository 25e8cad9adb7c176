import { mkdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Logger } from "../logger.js";

/** `{data_dir}`: holds every file of the daemon; only the current user may enter it. */
const DATA_DIR_MODE = 0o700;
/** Every file in `{data_dir}`: keys, report text, config. */
export const DATA_FILE_MODE = 0o600;

/** `RINGBACK_HOME` when set, else `~/.ringback`. */
export function resolveDataDir(env: NodeJS.ProcessEnv): string {
  const override = env.RINGBACK_HOME?.trim();
  return override ? resolve(override) : join(homedir(), ".ringback");
}

/**
 * Creates `{data_dir}` with mode 700 when missing. An existing directory is not changed (it may be one the
 * user chose, such as a shared folder); a warning says when others can enter it.
 */
export async function ensureDataDir(path: string, log: Logger): Promise<void> {
  await mkdir(path, { recursive: true, mode: DATA_DIR_MODE });
  const mode = (await stat(path)).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    log(`warning: ${path} is accessible to other users (mode ${mode.toString(8)}); 700 is recommended`);
  }
}
