import { mkdir, open, rename } from "node:fs/promises";
import { dirname } from "node:path";

/** Every outbox file holds report text: readable by the current user only. */
export const OUTBOX_FILE_MODE = 0o600;
export const OUTBOX_DIRECTORY_MODE = 0o700;

/** Creates the data directory (mode 700) when it does not exist; an existing one is left as it is. */
export async function ensureDirectory(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: OUTBOX_DIRECTORY_MODE });
}

/**
 * Replaces `path` with `text` so that a crash leaves either the old or the new file, never a mix:
 * temporary file, fsync, rename, then fsync of the directory so the rename itself is durable.
 */
export async function writeFileDurably(path: string, text: string): Promise<void> {
  const temporaryPath = `${path}.tmp`;
  const handle = await open(temporaryPath, "w", OUTBOX_FILE_MODE);
  try {
    // `open` applies the mode only when it creates the file; a leftover temporary file keeps its own.
    await handle.chmod(OUTBOX_FILE_MODE);
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporaryPath, path);
  await syncDirectory(dirname(path));
}

async function syncDirectory(path: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, "r");
    await handle.sync();
  } catch (error) {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is as durable as they allow.
    if (!isUnsupportedDirectorySync(error)) throw error;
  } finally {
    await handle?.close();
  }
}

function isUnsupportedDirectorySync(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "EISDIR" || code === "EPERM" || code === "EINVAL" || code === "EACCES";
}

/** Opens `path` for appending, created with mode 600, and tightens the mode of an existing file. */
export async function openForAppend(path: string) {
  const handle = await open(path, "a", OUTBOX_FILE_MODE);
  try {
    await handle.chmod(OUTBOX_FILE_MODE);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
