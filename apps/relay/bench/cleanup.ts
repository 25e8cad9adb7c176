/** Everything the bench started, stopped last-first: at the end, on failure, and when it runs over budget. */
export class Cleanup {
  readonly #steps: (() => Promise<unknown>)[] = [];
  #running: Promise<void> = Promise.resolve();

  add(step: () => Promise<unknown>): void {
    this.#steps.push(step);
  }

  /** Stops what `starting` resolves to, once it has started (a process still starting is not left behind). */
  addStarting<T>(starting: Promise<T>, stop: (started: T) => Promise<unknown>): void {
    this.add(() => starting.then(stop, () => {}));
  }

  /**
   * Runs every step once, even when one fails (a stopped relay must not keep nginx or PostgreSQL running). A run
   * that starts while another is under way waits for it, so the watchdog's exit never cuts a step short.
   */
  run(): Promise<void> {
    this.#running = this.#running.then(async () => {
      for (let step = this.#steps.pop(); step; step = this.#steps.pop()) {
        await step().catch((error: unknown) => console.error("relay bench: a cleanup step failed:", error));
      }
    });
    return this.#running;
  }
}
