interface Waiting<I, O> {
  readonly input: I;
  readonly resolve: (output: O) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit for a synchronous store: writes that arrive in the same turn of the event loop run together, in one
 * transaction (`runAll`), so a burst of events costs one fsync instead of one each. When the batch fails, each write
 * runs again on its own (`runOne`), so one bad write never fails the others. Alone, a write waits only for the
 * current turn to end.
 */
export class GroupCommit<I, O> {
  readonly #runAll: (inputs: readonly I[]) => O[];
  readonly #runOne: (input: I) => O;
  #waiting: Waiting<I, O>[] = [];

  constructor(runAll: (inputs: readonly I[]) => O[], runOne: (input: I) => O) {
    this.#runAll = runAll;
    this.#runOne = runOne;
  }

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      if (this.#waiting.length === 0) setImmediate(() => this.#commit());
      this.#waiting.push({ input, resolve, reject });
    });
  }

  #commit(): void {
    const batch = this.#waiting;
    this.#waiting = [];
    if (batch.length > 1) {
      let outputs: O[] | null = null;
      try {
        outputs = this.#runAll(batch.map((waiting) => waiting.input));
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
    for (const waiting of batch) {
      try {
        waiting.resolve(this.#runOne(waiting.input));
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}
