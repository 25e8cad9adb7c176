import type { Brief, Report } from "@ringback/protocol";
import { retryDelayMs } from "./backoff.js";
import type { FinishedEntry, OutboxEntry } from "./entry.js";
import { OutboxError } from "./outbox-error.js";
import { BriefScheduler } from "./scheduler.js";
import type { SendFunction, SendOutcome } from "./sender.js";
import { describeFailure, Sender } from "./sender.js";
import type { AcceptResult, OutboxRecovery } from "./store.js";
import { OutboxStore } from "./store.js";

/**
 * Writes the brief of one report. Expected to resolve even when the model fails (with a `failed` brief);
 * a rejection is retried with the send backoff so the report is never lost to a bug.
 */
export type GenerateBrief = (report: Report, signal: AbortSignal) => Promise<Brief>;

export interface Clock {
  now(): number;
}

export interface OutboxOptions {
  /** `{data_dir}`: where `outbox.json` and `outbox.journal` live. */
  directory: string;
  generateBrief: GenerateBrief;
  /**
   * Posts a generated entry. Without one, generated entries wait in the outbox (no relay configured) until
   * `startSending` gives one.
   */
  send?: SendFunction;
  clock?: Clock;
  /** One line per event (accepted entries are not logged: that is the caller's answer). Never given a secret. */
  log?: (message: string) => void;
  /**
   * The earliest time (epoch ms) the report's call may be sent, decided once as it is accepted and kept with it, so
   * a restart keeps the hold (the daemon's gathering window). Null or absent: as soon as its brief is written.
   */
  holdUntil?: (report: Report) => number | null;
  /** Defaults to the spec's 3. */
  concurrentGenerations?: number;
  sendConcurrency?: number;
}

const systemClock: Clock = { now: () => Date.now() };

/**
 * The durable report queue: `enqueue` resolves once the report is on disk, then its brief is generated
 * (3 at once, in arrival order), written back, and sent with backoff until the relay has it.
 */
export class Outbox {
  readonly #options: OutboxOptions;
  readonly #clock: Clock;
  #store: OutboxStore | null = null;
  #scheduler: BriefScheduler | null = null;
  #sender: Sender | null = null;
  readonly #generationFailures = new Map<string, number>();
  readonly #generationRetryTimers = new Set<ReturnType<typeof setTimeout>>();

  constructor(options: OutboxOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** Opens the store and resumes every unfinished entry: regenerates the accepted, sends the generated. */
  async start(): Promise<OutboxRecovery> {
    if (this.#store) throw new OutboxError("not_started", "the outbox is already started");
    const store = await OutboxStore.open(this.#options.directory, { now: () => this.#clock.now() });
    this.#store = store;
    const scheduler = new BriefScheduler(
      (eventId, signal) => this.#generate(store, eventId, signal),
      this.#options.concurrentGenerations,
    );
    this.#scheduler = scheduler;
    for (const entry of store.entries()) if (entry.state === "accepted") scheduler.add(entry.report.eventId);
    if (this.#options.send) this.startSending(this.#options.send);
    const { recovery } = store;
    if (recovery.ignoredLines > 0) {
      this.#log(
        `outbox: skipped ${recovery.ignoredLines} torn journal line(s) (a write cut short by a crash)`,
      );
    }
    if (recovery.entries > 0) this.#log(`outbox: resuming ${recovery.entries} unfinished report(s)`);
    return recovery;
  }

  /**
   * Starts sending with `send` when the outbox has no sender yet (it was started without a relay): every report
   * waiting for one is scheduled at once. A no-op when it is already sending.
   */
  startSending(send: SendFunction): void {
    const store = this.#requireStarted();
    if (this.#sender) return;
    const sender = new Sender({
      send,
      getEntry: (eventId) => store.get(eventId),
      recordOutcome: (eventId, outcome) => this.#recordOutcome(store, eventId, outcome),
      now: () => this.#clock.now(),
      concurrency: this.#options.sendConcurrency,
    });
    this.#sender = sender;
    for (const entry of store.entries()) {
      if (entry.state === "generated") sender.schedule(entry.report.eventId, nextAttemptMs(entry));
    }
  }

  /** Resolves when the report is durable; `duplicate` when its event id was already accepted. */
  async enqueue(report: Report): Promise<AcceptResult> {
    const store = this.#requireStarted();
    // A report seen before keeps its first hold: asking again could open a window for nothing.
    const isKnown =
      store.get(report.eventId) !== undefined || store.getFinished(report.eventId) !== undefined;
    const heldUntil = isKnown ? null : (this.#options.holdUntil?.(report) ?? null);
    const result = await store.accept({
      report,
      state: "accepted",
      brief: null,
      acceptedAt: new Date(this.#clock.now()).toISOString(),
      attempts: 0,
      nextAttemptAt: heldUntil === null ? null : new Date(heldUntil).toISOString(),
    });
    if (result === "accepted") this.#scheduler?.add(report.eventId);
    return result;
  }

  /** Unfinished entries in arrival order. */
  entries(): readonly Readonly<OutboxEntry>[] {
    return this.#requireStarted().entries();
  }

  /** Recently sent or dropped reports. */
  finishedEntries(): readonly Readonly<FinishedEntry>[] {
    return this.#requireStarted().finishedEntries();
  }

  /**
   * Aborts generations in progress (they are regenerated at the next start), aborts sends in flight
   * (sent again at the next start; the relay dedupes by event id), then closes the store.
   */
  async stop(): Promise<void> {
    const store = this.#store;
    if (!store) return;
    this.#store = null;
    for (const timer of this.#generationRetryTimers) clearTimeout(timer);
    this.#generationRetryTimers.clear();
    await this.#scheduler?.stop();
    await this.#sender?.stop();
    await store.close();
  }

  #requireStarted(): OutboxStore {
    if (!this.#store) throw new OutboxError("not_started", "the outbox is not started");
    return this.#store;
  }

  async #generate(store: OutboxStore, eventId: string, signal: AbortSignal): Promise<void> {
    const entry = store.get(eventId);
    if (entry?.state !== "accepted") return;
    store.setGenerating(eventId, true);
    let brief: Brief;
    try {
      brief = await untilAborted(this.#options.generateBrief(entry.report, signal), signal);
    } catch (error) {
      store.setGenerating(eventId, false);
      if (!signal.aborted) this.#retryGeneration(eventId, error);
      return;
    }
    if (signal.aborted) {
      // Stopping: whatever came back is discarded and the brief is generated again at the next start.
      store.setGenerating(eventId, false);
      return;
    }
    this.#generationFailures.delete(eventId);
    try {
      // nextAttemptAt stays: it is the hold given at accept time (no send was tried before the brief).
      await store.update(eventId, { state: "generated", brief, attempts: 0 });
    } catch (error) {
      this.#log(`outbox: could not record the brief of ${eventId}: ${describeFailure(error)}`);
      return;
    }
    const failure = brief.meta.error ? ` (${brief.meta.error})` : "";
    this.#log(`outbox: brief ${brief.meta.status} for ${eventId}${failure}`);
    const generated = store.get(eventId);
    if (generated) this.#sender?.schedule(eventId, nextAttemptMs(generated));
  }

  #retryGeneration(eventId: string, error: unknown): void {
    const failures = (this.#generationFailures.get(eventId) ?? 0) + 1;
    this.#generationFailures.set(eventId, failures);
    const delayMs = retryDelayMs(failures);
    this.#log(
      `outbox: brief generation for ${eventId} failed (${describeFailure(error)}); retry in ${delayMs} ms`,
    );
    const timer = setTimeout(() => {
      this.#generationRetryTimers.delete(timer);
      this.#scheduler?.add(eventId);
    }, delayMs);
    this.#generationRetryTimers.add(timer);
  }

  async #recordOutcome(store: OutboxStore, eventId: string, outcome: SendOutcome): Promise<number | null> {
    const now = this.#clock.now();
    const at = new Date(now).toISOString();
    try {
      switch (outcome.kind) {
        case "sent":
          await store.finish(eventId, "sent", at, null);
          this.#log(`outbox: sent ${eventId}`);
          return null;
        case "duplicate":
          await store.finish(eventId, "sent", at, "duplicate_task");
          this.#log(`outbox: ${eventId} was already reported by another computer (duplicate_task); done`);
          return null;
        case "drop":
          await store.finish(eventId, "dropped", at, outcome.reason);
          this.#log(`outbox: dropped ${eventId}: ${outcome.reason}`);
          return null;
        case "retry": {
          const attempts = (store.get(eventId)?.attempts ?? 0) + 1;
          const delayMs = retryDelayMs(attempts, outcome.retryAfterMs);
          const nextMs = now + delayMs;
          await store.update(eventId, { attempts, nextAttemptAt: new Date(nextMs).toISOString() });
          this.#log(
            `outbox: send of ${eventId} failed (${outcome.reason}); retry ${attempts} in ${delayMs} ms`,
          );
          return nextMs;
        }
      }
    } catch (error) {
      // The store refuses writes after a failure; the entry stays as it was on disk for the next start.
      this.#log(`outbox: could not record the send of ${eventId}: ${describeFailure(error)}`);
      return null;
    }
  }

  #log(message: string): void {
    this.#options.log?.(message);
  }
}

function nextAttemptMs(entry: Readonly<OutboxEntry>): number {
  return entry.nextAttemptAt === null ? 0 : Date.parse(entry.nextAttemptAt);
}

/** Settles with `work`, or rejects as soon as `signal` aborts, so a generator that ignores it cannot hold up `stop`. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
