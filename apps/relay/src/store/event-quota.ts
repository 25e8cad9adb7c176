import type { AccountUsage, EventLimits } from "./store.js";

/** Whether a call with this ciphertext fits the account's quota, given what it holds now. */
export function eventFits(usage: AccountUsage, limits: EventLimits, sealed: string): boolean {
  return (
    usage.openCalls < limits.openCallsMax &&
    usage.sealedBytes + Buffer.byteLength(sealed) <= limits.sealedBytesMax
  );
}
