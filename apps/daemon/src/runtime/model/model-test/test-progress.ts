import type { LlmTestProgress, LlmTestStep } from "@ringback/protocol";

/**
 * The latest model test's step, for `ringback model test` to show while it waits (`GET /local/llm-test-progress`):
 * the verdict's answer is proven as a whole, so the steps come from asking, not from a stream.
 */
export class ModelTestProgress {
  #step: LlmTestStep | null = null;
  #startedAtMs = 0;

  constructor(private readonly now: () => number = Date.now) {}

  started(): void {
    this.#startedAtMs = this.now();
    this.#step = "waiting-for-slot";
  }

  reached(step: LlmTestStep): void {
    this.#step = step;
  }

  read(): LlmTestProgress {
    if (this.#step === null) return { step: null, elapsedMs: 0 };
    return { step: this.#step, elapsedMs: Math.max(0, Math.round(this.now() - this.#startedAtMs)) };
  }
}
