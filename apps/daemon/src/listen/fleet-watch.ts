import type { E2eKey } from "@ringback/e2e-crypto";
import { type ComputerFleet, readAccountFleet } from "../runtime/fleet/account-fleet.js";
import { fleetLines, fleetSignature } from "../runtime/fleet/fleet-words.js";

/** How often the terminal reads the account's fleet from the relay (each computer sends at most one per 3 s). */
const FLEET_READ_INTERVAL_MS = 5_000;

export interface FleetWatchOptions {
  relay: { serverUrl: string; deviceToken: string; key: E2eKey };
  /** Called with the list's lines once at start and whenever an agent's state changes (not as minutes pass). */
  onChange(lines: string[]): void;
  intervalMs?: number;
  read?: typeof readAccountFleet;
}

/**
 * The account's fleet for `ringback listen`: read from the relay (`GET /v1/fleet`, opened with the key) now and every
 * few seconds; a read that fails is tried again at the next one.
 */
export class FleetWatch {
  readonly #options: FleetWatchOptions;
  #timer: ReturnType<typeof setInterval> | null = null;
  #signature: string | null = null;
  #latest: ComputerFleet[] = [];

  constructor(options: FleetWatchOptions) {
    this.#options = options;
  }

  start(): void {
    void this.#read();
    this.#timer = setInterval(() => void this.#read(), this.#options.intervalMs ?? FLEET_READ_INTERVAL_MS);
    this.#timer.unref();
  }

  /** The list as it is now (its minutes counted from now). */
  lines(): string[] {
    return fleetLines(this.#latest, new Date());
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  async #read(): Promise<void> {
    let computers: ComputerFleet[];
    try {
      computers = await (this.#options.read ?? readAccountFleet)(this.#options.relay);
    } catch {
      return;
    }
    this.#latest = computers;
    const signature = fleetSignature(computers);
    if (signature === this.#signature) return;
    this.#signature = signature;
    this.#options.onChange(this.lines());
  }
}
