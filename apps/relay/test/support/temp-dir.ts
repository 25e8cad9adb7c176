import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempDir extends AsyncDisposable {
  readonly path: string;
}

export async function tempDir(prefix = "ringback-relay-test-"): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return {
    path,
    [Symbol.asyncDispose]: () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
  };
}
