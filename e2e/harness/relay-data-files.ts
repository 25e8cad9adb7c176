import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** One file the relay keeps on disk, with its bytes. */
export interface RelayDataFile {
  readonly name: string;
  readonly bytes: Buffer;
}

/**
 * Every file under a relay's data directory (its SQLite database, journal and anything else it writes), for tests
 * that check what the relay holds in the clear. startSystem's relay keeps its data in `<system directory>/relay`.
 */
export async function readRelayDataFiles(dataDir: string): Promise<RelayDataFile[]> {
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => ({
        name: entry.name,
        bytes: await readFile(join(entry.parentPath, entry.name)),
      })),
  );
}

/** The names of the relay's files that hold `text` (UTF-8) as it is. */
export function filesHolding(files: readonly RelayDataFile[], text: string): string[] {
  return files.filter((file) => file.bytes.includes(text)).map((file) => file.name);
}
