import type { FleetState } from "@ringback/protocol";
import type { ConfigFile } from "../files/config-file.js";
import { currentE2eKey } from "../keys/e2e-key.js";
import type { Logger } from "../logger.js";
import { relayAddress } from "../relay-address.js";
import type { FleetChange } from "./fleet-change.js";
import { FleetFile } from "./fleet-file.js";
import { type FleetPutOutcome, putFleetState } from "./fleet-put.js";
import { sealedFleetBody } from "./fleet-seal.js";
import { FleetSender } from "./fleet-sender.js";
import { applyFleetChange, keptAgents } from "./fleet-transitions.js";

export interface FleetRuntimeOptions {
  dataDir: string;
  config: ConfigFile;
  env: NodeJS.ProcessEnv;
  log: Logger;
  now(): Date;
  /** FLEET_UPDATE_MIN_INTERVAL_MS unless a test or the bench says otherwise. */
  minIntervalMs?: number;
}

/**
 * This computer's fleet: what each of its agents is doing now. Changes come from the hook, the reports and their
 * briefs, the permission asks and the tracker; the state is kept in `fleet.json` and put on the relay sealed,
 * coalesced (see FleetSender), each put with a version one higher than the last.
 */
export class FleetRuntime {
  readonly #options: FleetRuntimeOptions;
  readonly #file: FleetFile;
  readonly #sender: FleetSender;
  #state: FleetState;

  private constructor(options: FleetRuntimeOptions, file: FleetFile, state: FleetState) {
    this.#options = options;
    this.#file = file;
    this.#state = state;
    this.#sender = new FleetSender({
      send: () => this.#put(),
      log: options.log,
      ...(options.minIntervalMs === undefined ? {} : { minIntervalMs: options.minIntervalMs }),
      now: () => options.now().getTime(),
    });
  }

  static async load(options: FleetRuntimeOptions): Promise<FleetRuntime> {
    const { file, state } = await FleetFile.load(options.dataDir, options.log, options.now());
    return new FleetRuntime(options, file, state);
  }

  /** Applies one change; a change that moves an entry is kept on disk and sent. */
  record(change: FleetChange): void {
    const now = this.#options.now();
    const agents = keptAgents(applyFleetChange(this.#state.agents, change, now), now);
    if (agents === this.#state.agents) return;
    this.#state = { ...this.#state, updatedAt: now.toISOString(), agents: [...agents] };
    this.#file.save(this.#state);
    this.#sender.changed();
  }

  /** The state as it is now (the version is the last one sent), for `GET /local/fleet` and `ringback status`. */
  current(): FleetState {
    const agents = keptAgents(this.#state.agents, this.#options.now());
    return agents === this.#state.agents ? this.#state : { ...this.#state, agents: [...agents] };
  }

  /** The link to the relay (re)opened: the relay gets the latest state again. */
  linkOpened(): void {
    this.#sender.linkOpened();
  }

  /** Whether a change still waits to reach the relay. */
  get isSending(): boolean {
    return this.#sender.isPending;
  }

  async stop(): Promise<void> {
    this.#sender.stop();
    await this.#file.flush();
  }

  async #put(): Promise<FleetPutOutcome> {
    const { config, env } = this.#options;
    const relay = relayAddress(config, env);
    const computerId = config.config.relay?.deviceId;
    if (!relay?.deviceToken || !computerId || !config.config.e2e) return { kind: "not-linked" };
    const now = this.#options.now();
    const state: FleetState = {
      version: this.#state.version + 1,
      updatedAt: now.toISOString(),
      agents: [...keptAgents(this.#state.agents, now)],
    };
    this.#state = state;
    this.#file.save(state);
    const body = await sealedFleetBody(currentE2eKey(config), computerId, state);
    return putFleetState({ serverUrl: relay.serverUrl, deviceToken: relay.deviceToken }, body);
  }
}
