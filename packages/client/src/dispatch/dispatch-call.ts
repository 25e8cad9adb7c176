import { DISPATCH_CREATION_POLL_MS, type DispatchRecord } from "@ringback/protocol";
import type { RingSound } from "../audio/ring-sound.js";
import type { Ringer } from "../audio/ringer.js";
import type { DispatchClient } from "./dispatch-daemon.js";
import { type DispatchProblem, dispatchProblem } from "./dispatch-problem.js";

/** The calling screen's stages: calling until the issue exists ("dispatched"), the task failed or was cancelled. */
export type CallStage = "calling" | "dispatched" | "failed" | "cancelled";

function callStageOf(record: DispatchRecord): CallStage {
  switch (record.state) {
    case "creating":
      return "calling";
    case "created":
      return "dispatched";
    case "failed":
      return "failed";
    case "cancelled":
      return "cancelled";
  }
}

export interface CallProgress {
  readonly record: DispatchRecord;
  readonly stage: CallStage;
  /** The last lookup failed (offline, timed out); polling goes on. */
  readonly lookupProblem: DispatchProblem | null;
}

export interface DispatchCallOptions {
  readonly client: Pick<DispatchClient, "lookupDispatch" | "cancelDispatch">;
  readonly ringer: Ringer;
  /** The call-waiting tone as chosen in Settings › Ringtones (may be silent). */
  readonly sound: () => RingSound;
  readonly onChange: (progress: CallProgress) => void;
}

/**
 * Spec (Dispatch screen, client): while calling, asks the daemon every 3 seconds whether the issue exists
 * (`POST /tracker/dispatches/lookup`) and plays the call-waiting tone, until it is created, fails or is cancelled.
 */
export class DispatchCall {
  #record: DispatchRecord;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #isOver = false;

  constructor(
    record: DispatchRecord,
    private readonly options: DispatchCallOptions,
  ) {
    this.#record = record;
  }

  get record(): DispatchRecord {
    return this.#record;
  }

  start(): void {
    this.#apply(this.#record, null);
    if (this.#isOver) return;
    this.options.ringer.start(this.options.sound());
    this.#schedule();
  }

  /** Cancels the tracker task; an issue that already exists is left as it is (and shown as dispatched). */
  async cancel(): Promise<void> {
    if (this.#isOver) return;
    const record = await this.options.client.cancelDispatch(this.#record.id);
    // The state right after the call is not specified: a task still "creating" was cancelled by this call.
    this.#apply(record.state === "creating" ? { ...record, state: "cancelled" } : record, null);
  }

  /** Stops polling and the tone; the dispatch goes on on the computer ("my dispatches" shows it). */
  stop(): void {
    this.#isOver = true;
    clearTimeout(this.#timer);
    this.options.ringer.stop();
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#lookup().catch(() => undefined);
    }, DISPATCH_CREATION_POLL_MS);
  }

  async #lookup(): Promise<void> {
    if (this.#isOver) return;
    try {
      const record = await this.options.client.lookupDispatch(this.#record.id);
      if (!this.#isOver) this.#apply(record, null);
    } catch (error) {
      if (!this.#isOver)
        this.options.onChange({
          record: this.#record,
          stage: "calling",
          lookupProblem: dispatchProblem(error),
        });
    }
    if (!this.#isOver) this.#schedule();
  }

  #apply(record: DispatchRecord, lookupProblem: DispatchProblem | null): void {
    this.#record = record;
    const stage = callStageOf(record);
    if (stage !== "calling") this.stop();
    this.options.onChange({ record, stage, lookupProblem });
  }
}
