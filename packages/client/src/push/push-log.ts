import type { KeyValueStore } from "../storage/key-value.js";
import { PUSH_LOG_KEY } from "../storage/storage-keys.js";

/** The most recent steps kept: enough for the last few calls, small enough to rewrite on every push. */
export const PUSH_LOG_MAX = 40;

/**
 * One step of a push on this device: `received` when the worker got it, then what came of it (`shown`, `missed`,
 * `quiet: <reason>`, `failed: <error>`). Ids and outcomes only, never what a call says. It answers "why did this
 * call not ring here?", the most common complaint about tools in this field.
 */
export interface PushLogEntry {
  readonly at: string;
  readonly eventId: string | null;
  readonly step: string;
}

/** Writes one after another, so two pushes handled at once do not lose each other's steps. */
let writing: Promise<void> = Promise.resolve();

/** Adds a step, newest first, keeping the last PUSH_LOG_MAX; a storage failure loses the step, nothing else. */
export function logPushStep(
  store: KeyValueStore,
  eventId: string | null,
  step: string,
  now: Date = new Date(),
): Promise<void> {
  const entry: PushLogEntry = { at: now.toISOString(), eventId, step };
  writing = writing
    .then(async () => {
      const log = await readPushLog(store);
      await store.set(PUSH_LOG_KEY, [entry, ...log].slice(0, PUSH_LOG_MAX));
    })
    .catch(() => undefined);
  return writing;
}

export async function readPushLog(store: KeyValueStore): Promise<PushLogEntry[]> {
  const stored = await store.get<unknown>(PUSH_LOG_KEY);
  return Array.isArray(stored) ? (stored as PushLogEntry[]) : [];
}
