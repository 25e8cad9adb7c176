import { CONCURRENT_BRIEF_GENERATIONS } from "@ringback/protocol";

/** Runs one brief generation; must settle soon after `signal` aborts. */
export type GenerationTask = (eventId: string, signal: AbortSignal) => Promise<void>;

/**
 * Starts brief generations in arrival order, at most `limit` at once (the spec's 3). `stop` aborts the
 * generations in progress and waits for them to settle; the task decides what an abort means for its entry.
 */
export class BriefScheduler {
  readonly #task: GenerationTask;
  readonly #limit: number;
  readonly #queue: string[] = [];
  readonly #queued = new Set<string>();
  readonly #running = new Map<string, { controller: AbortController; settled: Promise<void> }>();
  #isStopped = false;

  constructor(task: GenerationTask, limit: number = CONCURRENT_BRIEF_GENERATIONS) {
    this.#task = task;
    this.#limit = limit;
  }

  /** Queues a generation behind every one queued before it; an event id already queued or running is ignored. */
  add(eventId: string): void {
    if (this.#isStopped || this.#running.has(eventId) || this.#queued.has(eventId)) return;
    this.#queue.push(eventId);
    this.#queued.add(eventId);
    this.#startNext();
  }

  get runningCount(): number {
    return this.#running.size;
  }

  async stop(): Promise<void> {
    this.#isStopped = true;
    this.#queue.length = 0;
    this.#queued.clear();
    const running = [...this.#running.values()];
    for (const { controller } of running) controller.abort(new Error("the outbox is stopping"));
    await Promise.all(running.map(({ settled }) => settled));
  }

  #startNext(): void {
    while (!this.#isStopped && this.#running.size < this.#limit && this.#queue.length > 0) {
      const eventId = this.#queue.shift() as string;
      this.#queued.delete(eventId);
      const controller = new AbortController();
      // The task reports its own failures; the catch only keeps a bug in it from stopping the queue.
      const settled = this.#task(eventId, controller.signal)
        .catch(() => undefined)
        .finally(() => {
          this.#running.delete(eventId);
          this.#startNext();
        });
      this.#running.set(eventId, { controller, settled });
    }
  }
}
