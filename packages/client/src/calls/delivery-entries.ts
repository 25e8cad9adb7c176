import type { DeliveryOutcome, DeviceDeliveryOutcome, DeviceKind } from "@ringback/protocol";

/*
 * The delivery steps a call record keeps in its status fields, and how two records' steps merge: entries and report
 * states only ever grow, so merging never loses one.
 */

/** How far the call got on one device (`pushed`, `shown`, `opened`), as the relay recorded it. */
export interface DeliveryEntry {
  readonly deviceId: string;
  /**
   * The device's name as this device read it (`readDelivery`): null when it did not open. Records kept by older
   * versions hold the relay's text as it came, which a sealed name never reads as (`isSealedDeviceName`).
   */
  readonly deviceName: string | null;
  /** The device's kind, named when its name does not open; absent from older relays' records. */
  readonly deviceKind?: DeviceKind;
  readonly outcome: DeliveryOutcome;
  readonly at: string;
}

/**
 * This device's report of one of its own outcomes: `pending` until the relay has it (kept across restarts, so a
 * report that failed is sent again), `reported` once it has, `abandoned` when the relay refused it for good (404: the
 * call is gone).
 */
export type DeliveryReportState = "pending" | "reported" | "abandoned";

type DeliveryReports = Readonly<Partial<Record<DeviceDeliveryOutcome, DeliveryReportState>>>;

/** The device outcomes this device reports about itself, in the order a call reaches them. */
export const DEVICE_DELIVERY_OUTCOMES: readonly DeviceDeliveryOutcome[] = ["shown", "opened"];

const REPORT_STATE_RANK: Record<DeliveryReportState, number> = { pending: 0, abandoned: 1, reported: 2 };

function isSameStep(a: DeliveryEntry, b: DeliveryEntry): boolean {
  return a.deviceId === b.deviceId && a.outcome === b.outcome;
}

/**
 * Entries of both lists, one per (device, outcome), the earlier time kept; `existing` itself when `later` adds
 * nothing, so a replayed frame changes no record. Undefined when neither list exists (an older record).
 */
export function mergeDeliveries(
  existing: readonly DeliveryEntry[] | undefined,
  later: readonly DeliveryEntry[] | undefined,
): readonly DeliveryEntry[] | undefined {
  if (!later) return existing;
  let merged = existing ?? [];
  for (const entry of later) {
    const index = merged.findIndex((kept) => isSameStep(kept, entry));
    const kept = merged[index];
    if (kept && Date.parse(kept.at) <= Date.parse(entry.at)) continue;
    merged = kept ? merged.map((other, at) => (at === index ? entry : other)) : [...merged, entry];
  }
  return merged;
}

/** Report states of both sides, each outcome at its most settled (reported, then abandoned, then pending). */
export function mergeDeliveryReports(
  existing: DeliveryReports | undefined,
  later: DeliveryReports | undefined,
): DeliveryReports | undefined {
  if (!existing || !later) return later ?? existing;
  const merged: Partial<Record<DeviceDeliveryOutcome, DeliveryReportState>> = { ...existing };
  for (const outcome of DEVICE_DELIVERY_OUTCOMES) {
    const state = later[outcome];
    const kept = merged[outcome];
    if (state && (!kept || REPORT_STATE_RANK[state] > REPORT_STATE_RANK[kept])) merged[outcome] = state;
  }
  return merged;
}
