import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TemporaryDirectory extends AsyncDisposable {
  readonly path: string;
  remove(): Promise<void>;
}

/** A fresh directory under the system temp dir, deleted with everything in it on dispose. */
export async function makeTemporaryDirectory(prefix = "ringback-e2e-"): Promise<TemporaryDirectory> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  const remove = () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  return { path, remove, [Symbol.asyncDispose]: remove };
}
