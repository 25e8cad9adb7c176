import {
  type EscalationChannelPublic,
  type EscalationChannelUpdate,
  type EscalationSettingsResponse,
  type EscalationTestResponse,
  keptChannel,
  type PutEscalationSettingsRequest,
} from "@ringback/protocol";
import { Observable } from "../controller/observable.js";
import type { DaemonClient } from "../daemon/daemon-client.js";
import { askComputer } from "./ask-computer.js";
import type { ComputerProblem } from "./computer-problem.js";

/** The relayed daemon requests of Settings › Escalation. */
export type EscalationClient = Pick<
  DaemonClient,
  "escalationSettings" | "saveEscalationSettings" | "testEscalation"
>;

export interface EscalationView {
  /** Null until the computer answered. */
  readonly settings: EscalationSettingsResponse | null;
  readonly busy: "loading" | "saving" | "testing" | null;
  readonly problem: ComputerProblem | null;
  readonly notice: "saved" | null;
  readonly testResult: EscalationTestResponse | null;
}

/**
 * The computer's escalation ladder (relayed `GET/PUT /escalation/settings`, `POST /escalation/test`): channels that
 * reach the phone when a call is not answered. Secrets are sent once and never come back; only their hints do.
 */
export class EscalationController extends Observable<EscalationView> {
  constructor(private readonly client: () => Promise<EscalationClient>) {
    super({ settings: null, busy: null, problem: null, notice: null, testResult: null });
  }

  load(): Promise<boolean> {
    return this.#run("loading", async (client) => {
      this.update({ settings: await client.escalationSettings() });
    });
  }

  /** Adds `channel` or replaces the saved one of its kind (a secret left out keeps the saved one). */
  saveChannel(channel: EscalationChannelUpdate): Promise<boolean> {
    const saved = (this.view.settings?.channels ?? []).map(keptChannel);
    const index = saved.findIndex((entry) => entry.kind === channel.kind);
    const channels =
      index === -1 ? [...saved, channel] : saved.map((entry, at) => (at === index ? channel : entry));
    return this.save({ channels });
  }

  removeChannel(kind: EscalationChannelPublic["kind"]): Promise<boolean> {
    const channels = (this.view.settings?.channels ?? [])
      .filter((entry) => entry.kind !== kind)
      .map(keptChannel);
    return this.save({ channels });
  }

  /** Saves the schedule and idle threshold with the channels as they are. */
  saveTiming(timing: Omit<PutEscalationSettingsRequest, "channels">): Promise<boolean> {
    return this.save({ channels: (this.view.settings?.channels ?? []).map(keptChannel), ...timing });
  }

  save(request: PutEscalationSettingsRequest): Promise<boolean> {
    return this.#run("saving", async (client) => {
      this.update({ settings: await client.saveEscalationSettings(request), notice: "saved" });
    });
  }

  test(): Promise<boolean> {
    return this.#run("testing", async (client) => {
      this.update({ testResult: await client.testEscalation() });
    });
  }

  #run(
    busy: NonNullable<EscalationView["busy"]>,
    action: (client: EscalationClient) => Promise<void>,
  ): Promise<boolean> {
    const start = { busy, problem: null, notice: null, ...(busy === "testing" ? { testResult: null } : {}) };
    return askComputer((change) => this.update(change), start, this.client, action);
  }
}
