import type { LlmChannelPublic, LlmTestResponse } from "@ringback/protocol";
import { Observable } from "../controller/observable.js";
import type { DaemonClient } from "../daemon/daemon-client.js";
import { askComputer } from "./ask-computer.js";
import { type ComputerModelForm, computerModelRequest } from "./computer-model-form.js";
import type { ComputerProblem } from "./computer-problem.js";

/** The relayed daemon requests of Settings › Language model for briefs. */
export type ComputerModelClient = Pick<
  DaemonClient,
  "llmSettings" | "saveLlmSettings" | "deleteLlmSettings" | "testLlm"
>;

export type ComputerModelBusy = "loading" | "saving" | "removing" | "testing";

export interface ComputerModelView {
  /** Whether the computer has answered once; `channel` is null before that and when it has none. */
  readonly isLoaded: boolean;
  /** The channel as the computer returns it: address, model, key hint, structured output. */
  readonly channel: LlmChannelPublic | null;
  readonly busy: ComputerModelBusy | null;
  readonly problem: ComputerProblem | null;
  readonly notice: "saved" | "removed" | null;
  /** The last connection test's answer: the model and its latency, or why it did not work. */
  readonly testResult: LlmTestResponse | null;
}

/**
 * The computer's language model for briefs (spec: Language-model channel), relayed `GET/PUT/DELETE /llm/settings`
 * and the connection test `POST /llm/test`. The key is sent once and never comes back; only its hint does.
 */
export class ComputerModelController extends Observable<ComputerModelView> {
  constructor(private readonly client: () => Promise<ComputerModelClient>) {
    super({ isLoaded: false, channel: null, busy: null, problem: null, notice: null, testResult: null });
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

  /**
   * Tests what the form says, unsaved (spec: "Connection test uses the same structured-output call as brief
   * generation"): an empty key means the key saved on the computer. True when the computer answered, whether the
   * model worked or not (`testResult` says which).
   */
  async test(form: ComputerModelForm): Promise<boolean> {
    const checked = computerModelRequest(form, this.view.channel);
    if ("problem" in checked) {
      this.update({ problem: checked.problem, notice: null, testResult: null });
      return false;
    }
    return this.#run("testing", async (client) => {
      this.update({ testResult: await client.testLlm(checked.request) });
    });
  }

  remove(): Promise<boolean> {
    return this.#run("removing", async (client) => {
      this.update({ channel: await client.deleteLlmSettings(), notice: "removed" });
    });
  }

  #run(busy: ComputerModelBusy, action: (client: ComputerModelClient) => Promise<void>): Promise<boolean> {
    const start = { busy, problem: null, notice: null, testResult: null };
    return askComputer((change) => this.update(change), start, this.client, action);
  }
}
