import { type CallStatusRequest, type CallStatusResult, RingbackError } from "@ringback/protocol";
import type { DeviceRecord } from "../store/store.js";
import { settledCall } from "./push-delivery.js";
import { publish, type RelayRuntime } from "./relay-runtime.js";
import { sweepExpired } from "./sweeper.js";

/**
 * Sets a call's status for `device` (the first answer wins) and sends the change to every stream of the account.
 */
export async function changeCallStatus(
  runtime: RelayRuntime,
  device: DeviceRecord,
  eventId: string,
  status: CallStatusRequest["status"],
): Promise<CallStatusResult> {
  // A call past its time is expired first, so nobody can answer it late.
  await sweepExpired(runtime);
  const now = runtime.clock.now();
  const outcome = await runtime.store.setCallStatus({
    accountId: device.accountId,
    eventId,
    deviceId: device.id,
    status,
    now,
    answeredExpiresAt: now + runtime.config.callExpiryMs,
  });
  switch (outcome.kind) {
    case "not_found":
      throw new RingbackError("call_not_found");
    case "already_answered":
      throw new RingbackError(
        "call_already_answered",
        outcome.status === "answered" ? undefined : `The call already ended (${outcome.status}).`,
      );
    case "changed":
      publish(runtime, [outcome.entry]);
      // The call's notification closes on the other devices that were pushed it, even where the app is closed.
      runtime.push.kickSettled(settledCall(outcome.entry));
      runtime.log.line(
        `call ${outcome.status} event=${eventId} device=${device.id} seq=${outcome.entry.seq}`,
      );
      break;
  }
  return { eventId, status: outcome.status, won: outcome.kind !== "already_ended" };
}
