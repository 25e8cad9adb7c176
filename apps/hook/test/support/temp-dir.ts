import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempDir extends AsyncDisposable {
  path: string;
}

/** A fresh directory under the system temp dir, removed when disposed. */
export async function makeTempDir(prefix = "ringback-hook-"): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return {
    path,
    [Symbol.asyncDispose]: () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
  };
}
