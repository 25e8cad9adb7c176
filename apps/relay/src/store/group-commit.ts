interface Waiting<I, O> {
  readonly input: I;
  readonly resolve: (output: O) => void;
  readonly reject: (error: unknown) => void;
}

/** When a write that finds no commit under way starts one. */
export type GroupCommitStart =
  /** After the current turn of the event loop, so the writes of that turn go together (a synchronous store). */
  | "next-turn"
  /** At once; the writes that come while it commits go together in the next one (a store over a network). */
  | "at-once";

/**
 * Group commit: writes that come together run in one transaction (`runAll`), so a burst of events costs one commit
 * (one fsync) instead of one each, and they are answered, and so streamed, together. One commit at a time. When
 * a batch fails, each of its writes runs again on its own (`runOne`), so one bad write never fails the others.
 */
export class GroupCommit<I, O> {
  readonly #runAll: (inputs: readonly I[]) => O[] | Promise<O[]>;
  readonly #runOne: (input: I) => O | Promise<O>;
  readonly #start: GroupCommitStart;
  #waiting: Waiting<I, O>[] = [];
  #isCommitting = false;

  constructor(
    start: GroupCommitStart,
    runAll: (inputs: readonly I[]) => O[] | Promise<O[]>,
    runOne: (input: I) => O | Promise<O>,
  ) {
    this.#start = start;
    this.#runAll = runAll;
    this.#runOne = runOne;
  }

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#waiting.push({ input, resolve, reject });
      if (this.#isCommitting) return;
      this.#isCommitting = true;
      if (this.#start === "at-once") void this.#commitWaiting();
      else setImmediate(() => void this.#commitWaiting());
    });
  }

  async #commitWaiting(): Promise<void> {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      await this.#commit(batch);
    }
    this.#isCommitting = false;
  }

  async #commit(batch: readonly Waiting<I, O>[]): Promise<void> {
    if (batch.length > 1) {
      let outputs: O[] | null = null;
      try {
        outputs = await this.#runAll(batch.map((waiting) => waiting.input));
      } catch {
        // Rolled back as a whole: each write is tried alone below.
      }
      if (outputs) {
        batch.forEach((waiting, index) => {
          waiting.resolve(outputs[index] as O);
        });
        return;
      }
    }
    // All at once (a synchronous store still runs them in order): a database that is down fails each write within
    // one timeout, not one after another.
    await Promise.all(
      batch.map(async (waiting) => {
        try {
          waiting.resolve(await this.#runOne(waiting.input));
        } catch (error) {
          waiting.reject(error);
        }
      }),
    );
  }
}
