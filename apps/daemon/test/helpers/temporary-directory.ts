import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh directory under the system temp dir; `remove` deletes it with everything in it. */
export async function makeTemporaryDirectory(prefix = "ringback-daemon-") {
  const path = await mkdtemp(join(tmpdir(), prefix));
  // Retries: a child process or a background write may still be finishing a file in it.
  return { path, remove: () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }) };
}
