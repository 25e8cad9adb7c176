import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TemporaryDirectory extends AsyncDisposable {
  readonly path: string;
  /** Deletes it with everything in it (what disposing does). */
  remove(): Promise<void>;
}

/** A fresh directory under the system temp dir, deleted with everything in it on dispose (`await using`). */
export async function makeTemporaryDirectory(prefix = "ringback-test-"): Promise<TemporaryDirectory> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  // Retries: a child process or a background write may still be finishing a file in it.
  const remove = () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  return { path, remove, [Symbol.asyncDispose]: remove };
}
