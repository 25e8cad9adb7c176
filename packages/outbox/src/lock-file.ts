import { open, readFile, rm } from "node:fs/promises";
import { OUTBOX_FILE_MODE } from "./durable-file.js";
import { OutboxError } from "./outbox-error.js";

/**
 * Claims `path` for this process (the file holds its pid). Two processes appending to one journal would
 * undo each other's compaction, so a second one is refused while the first is alive; the lock of a process
 * that is gone (a crash) is taken over.
 */
export async function acquireLock(path: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, "wx", OUTBOX_FILE_MODE);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number((await readFile(path, "utf8").catch(() => "")).trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new OutboxError("locked", `the outbox in ${path} is in use by another process (pid ${holder})`);
    }
    await rm(path, { force: true });
  }
  throw new OutboxError("locked", `could not claim ${path}`);
}

export async function releaseLock(path: string): Promise<void> {
  await rm(path, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
