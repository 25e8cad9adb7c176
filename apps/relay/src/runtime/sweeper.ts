import { settledCall } from "./push-delivery.js";
import { publish, type RelayRuntime } from "./relay-runtime.js";

/**
 * Expires calls and replies that are due, erasing their ciphertext, and tells every device (those that were pushed
 * an expired call with a `call-settled` push too).
 */
export async function sweepExpired(runtime: RelayRuntime): Promise<void> {
  const entries = await runtime.store.expireDue(runtime.clock.now());
  if (entries.length === 0) return;
  publish(runtime, entries);
  const calls = entries.filter((entry) => entry.kind === "call-status");
  // Only the instance whose sweep expired a call gets its entry, so each expiry is pushed once.
  for (const entry of calls) runtime.push.kickSettled(settledCall(entry));
  runtime.log.line(`expired ${calls.length} calls and ${entries.length - calls.length} replies`);
}

/** Forgets ended calls, settled replies and stream history older than the retention time. */
export async function pruneHistory(runtime: RelayRuntime): Promise<void> {
  await runtime.store.pruneBefore(runtime.clock.now() - runtime.config.retentionMs);
}
