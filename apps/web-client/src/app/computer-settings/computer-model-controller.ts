import type { LlmChannelPublic } from "@ringback/protocol";
import { Observable } from "../controller/observable.js";
import type { DaemonClient } from "../daemon/daemon-client.js";
import { type ComputerModelForm, computerModelRequest } from "./computer-model-form.js";
import { type ComputerProblem, computerProblemOf } from "./computer-problem.js";

/** The relayed daemon requests of Settings › Language model for briefs. */
export type ComputerModelClient = Pick<DaemonClient, "llmSettings" | "saveLlmSettings" | "deleteLlmSettings">;

export type ComputerModelBusy = "loading" | "saving" | "removing";

export interface ComputerModelView {
  /** Whether the computer has answered once; `channel` is null before that and when it has none. */
  readonly isLoaded: boolean;
  /** The channel as the computer returns it: address, model, key hint, structured output. */
  readonly channel: LlmChannelPublic | null;
  readonly busy: ComputerModelBusy | null;
  readonly problem: ComputerProblem | null;
  readonly notice: "saved" | "removed" | null;
}

/**
 * The computer's language model for briefs (spec: Language-model channel), relayed `GET/PUT/DELETE /llm/settings`.
 * The key is sent once and never comes back; only its hint does. The daemon offers no connection test over its
 * interface, so there is none here.
 */
export class ComputerModelController extends Observable<ComputerModelView> {
  constructor(private readonly client: () => Promise<ComputerModelClient>) {
    super({ isLoaded: false, channel: null, busy: null, problem: null, notice: null });
  }

  async load(): Promise<void> {
    await this.#run("loading", async (client) => {
      this.update({ channel: await client.llmSettings(), isLoaded: true });
    });
  }

  /** Sends the form; true when the computer saved it (the caller then clears the key field). */
  async save(form: ComputerModelForm): Promise<boolean> {
    const checked = computerModelRequest(form, this.view.channel);
    if ("problem" in checked) {
      this.update({ problem: checked.problem, notice: null });
      return false;
    }
    return this.#run("saving", async (client) => {
      this.update({
        channel: await client.saveLlmSettings(checked.request),
        isLoaded: true,
        notice: "saved",
      });
    });
  }

  remove(): Promise<boolean> {
    return this.#run("removing", async (client) => {
      this.update({ channel: await client.deleteLlmSettings(), notice: "removed" });
    });
  }

  async #run(
    busy: ComputerModelBusy,
    action: (client: ComputerModelClient) => Promise<void>,
  ): Promise<boolean> {
    this.update({ busy, problem: null, notice: null });
    try {
      await action(await this.client());
      return true;
    } catch (error) {
      this.update({ problem: computerProblemOf(error) });
      return false;
    } finally {
      this.update({ busy: null });
    }
  }
}
