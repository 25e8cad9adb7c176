import { savedEscalation } from "../escalation/escalation-settings.js";
import type { ConfigFile } from "../files/config-file.js";
import type { IdleReading } from "./idle-reading.js";
import { readIdleTime } from "./read-idle-time.js";

/** Whether the person counts as away by input idle time alone, and what was read. */
export type IdleAway =
  | { kind: "off" }
  | { kind: "unavailable"; reason: string }
  | {
      kind: "read";
      isAway: boolean;
      reading: Extract<IdleReading, { kind: "idle" }>;
      thresholdSeconds: number;
    };

/**
 * Away by itself: no key or pointer input for the user's threshold (`escalation.idleAwaySeconds`, default 2 min).
 * It adds to the switch and the ring modes; where idle time cannot be read, they alone decide (today's rule).
 */
export class IdleAwayReader {
  readonly #config: Pick<ConfigFile, "raw">;
  readonly #read: () => Promise<IdleReading>;

  constructor(config: Pick<ConfigFile, "raw">, read: () => Promise<IdleReading>) {
    this.#config = config;
    this.#read = read;
  }

  static forThisComputer(config: ConfigFile, env: NodeJS.ProcessEnv): IdleAwayReader {
    return new IdleAwayReader(config, IdleAwayReader.readerFor(env));
  }

  /** This computer's idle counter, as seen from a process with `env` (its display and session). */
  static readerFor(env: NodeJS.ProcessEnv): () => Promise<IdleReading> {
    return () => readIdleTime({ platform: process.platform, env, now: Date.now });
  }

  async check(): Promise<IdleAway> {
    const thresholdSeconds = savedEscalation(this.#config.raw).idleAwaySeconds;
    if (thresholdSeconds === null) return { kind: "off" };
    const reading = await this.#read();
    if (reading.kind === "unavailable") return reading;
    return { kind: "read", isAway: reading.seconds >= thresholdSeconds, reading, thresholdSeconds };
  }
}
