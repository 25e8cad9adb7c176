import { publish, type RelayRuntime } from "./relay-runtime.js";

/** Expires calls and replies that are due, erasing their ciphertext, and tells every device. */
export async function sweepExpired(runtime: RelayRuntime): Promise<void> {
  const entries = await runtime.store.expireDue(runtime.clock.now());
  if (entries.length === 0) return;
  publish(runtime, entries);
  const calls = entries.filter((entry) => entry.kind === "call-status").length;
  runtime.log.line(`expired ${calls} calls and ${entries.length - calls} replies`);
}

/** Forgets ended calls, settled replies and stream history older than the retention time. */
export async function pruneHistory(runtime: RelayRuntime): Promise<void> {
  await runtime.store.pruneBefore(runtime.clock.now() - runtime.config.retentionMs);
}
