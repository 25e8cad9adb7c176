import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh directory under the system temp dir; `remove` deletes it with everything in it. */
export async function makeTemporaryDirectory(prefix = "ringback-daemon-") {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
