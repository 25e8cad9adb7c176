import { join } from "node:path";
import { writeFileDurably } from "@ringback/outbox";
import { FleetState } from "@ringback/protocol";
import { readTextIfExists, tightenFileMode } from "../files/private-file.js";
import type { Logger } from "../logger.js";

/** `{data_dir}/fleet.json`: this computer's agents and the last version sent, so a restart keeps both. */
export const FLEET_FILE = "fleet.json";

/**
 * This computer's fleet state in a private file. Saving is immediate in memory; the file follows, one write at a
 * time with the latest state. An unreadable file is logged and started afresh: the agents show again as they move.
 */
export class FleetFile {
  readonly #path: string;
  readonly #log: Logger;
  #latest: FleetState | null = null;
  #writing: Promise<void> | null = null;

  private constructor(path: string, log: Logger) {
    this.#path = path;
    this.#log = log;
  }

  /** The file and the state it holds (version 0 and no agents when there is none). */
  static async load(
    dataDir: string,
    log: Logger,
    now: Date,
  ): Promise<{ file: FleetFile; state: FleetState }> {
    const path = join(dataDir, FLEET_FILE);
    const file = new FleetFile(path, log);
    const empty: FleetState = { version: 0, updatedAt: now.toISOString(), agents: [] };
    const text = await readTextIfExists(path);
    if (text === null) return { file, state: empty };
    await tightenFileMode(path, log);
    const parsed = FleetState.safeParse(safeJsonParse(text));
    if (parsed.success) return { file, state: parsed.data };
    log(`${path} could not be read; the fleet starts empty and shows each agent again when it moves`);
    return { file, state: empty };
  }

  /** The state in `{data_dir}/fleet.json` as it is now, for a reader that changes nothing; null without one. */
  static async read(dataDir: string): Promise<FleetState | null> {
    const text = await readTextIfExists(join(dataDir, FLEET_FILE));
    if (text === null) return null;
    const parsed = FleetState.safeParse(safeJsonParse(text));
    return parsed.success ? parsed.data : null;
  }

  save(state: FleetState): void {
    this.#latest = state;
    this.#writing ??= this.#writeWhileNewer();
  }

  /** Waits until the file holds the latest state saved. */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  async #writeWhileNewer(): Promise<void> {
    try {
      for (let written: FleetState | null = null; this.#latest !== written; ) {
        written = this.#latest;
        await writeFileDurably(this.#path, JSON.stringify(written));
      }
    } catch (error) {
      this.#log(`could not write ${this.#path}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.#writing = null;
    }
  }
}

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
