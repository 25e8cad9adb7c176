import type { ModelCallStats } from "./call-stats.js";
import type { StreamedCompletion } from "./completion-stream.js";

/** What one model call measures as it goes: from sending the request, each token as it streams, the usage. */
export class CallMeasurements {
  /** The usage the server reported at the end of its answer; null until then (or when it reports none). */
  usage: StreamedCompletion["usage"] = null;
  #startedAt: number;
  #firstTokenAt: number | null = null;
  #lastTokenAt: number | null = null;
  #streamedTokens = 0;

  constructor(
    private readonly now: () => number,
    private readonly estimatedPromptTokens: number,
  ) {
    this.#startedAt = now();
  }

  /** The request is sent: the times count from now. */
  start(): void {
    this.#startedAt = this.now();
  }

  get hasToken(): boolean {
    return this.#firstTokenAt !== null;
  }

  tokenArrived(): void {
    this.#lastTokenAt = this.now();
    this.#firstTokenAt ??= this.#lastTokenAt;
    this.#streamedTokens++;
  }

  /** The figures so far: the server's counts where it gave them, else the estimate and the streamed tokens. */
  stats(): ModelCallStats {
    return {
      promptTokens: this.usage?.promptTokens ?? this.estimatedPromptTokens,
      isPromptCounted: typeof this.usage?.promptTokens === "number",
      outputTokens: this.usage?.outputTokens ?? this.#streamedTokens,
      firstTokenMs: this.#firstTokenAt === null ? null : this.#firstTokenAt - this.#startedAt,
      lastTokenMs: this.#lastTokenAt === null ? null : this.#lastTokenAt - this.#startedAt,
      totalMs: this.now() - this.#startedAt,
    };
  }
}
