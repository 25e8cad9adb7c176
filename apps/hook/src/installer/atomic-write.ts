import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Mode of a file the installer creates: agent settings can hold keys, so only the user reads them. */
const NEW_FILE_MODE = 0o600;

/**
 * Writes `content` to `path` through a temporary file in the same directory and a rename, so the agent
 * never reads a half-written file. An existing file keeps its mode; missing directories are created.
 */
export function writeFileAtomic(path: string, content: string): void {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true });
  let mode = NEW_FILE_MODE;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    // A new file.
  }
  const temporary = join(directory, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    writeFileSync(temporary, content, { mode, flag: "wx" });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
