import type { NewDelivery, RecordDeliveryOutcome } from "../store/store.js";
import { publish, type RelayRuntime } from "./relay-runtime.js";

/**
 * Records how far a call got on a device, now, and sends a new record to every stream of the account (the other
 * instances learn of it from the store); a repeat changes and sends nothing.
 */
export async function recordDelivery(
  runtime: RelayRuntime,
  input: Omit<NewDelivery, "now">,
): Promise<RecordDeliveryOutcome> {
  const outcome = await runtime.store.recordDelivery({ ...input, now: runtime.clock.now() });
  if (outcome.kind === "created") {
    publish(runtime, [outcome.entry]);
    runtime.log.line(
      `call ${input.outcome} event=${input.eventId} device=${input.deviceId} seq=${outcome.entry.seq}`,
    );
  }
  return outcome;
}
