import { chmod, readFile, stat } from "node:fs/promises";
import type { Logger } from "../logger.js";
import { DATA_FILE_MODE } from "./data-dir.js";

/** The file's text, or null when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Sets mode 600 on a file written by hand or by an older version that others could read. */
export async function tightenFileMode(path: string, log: Logger): Promise<void> {
  const mode = (await stat(path)).mode & 0o777;
  if (mode === DATA_FILE_MODE) return;
  await chmod(path, DATA_FILE_MODE);
  log(`set the mode of ${path} to 600 (was ${mode.toString(8)})`);
}
