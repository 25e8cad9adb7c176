import type {
  CallDelivery,
  CallStatusChange,
  DeliveryOutcome,
  DeviceDeliveryOutcome,
} from "@ringback/protocol";
import type { CallRecord, DeliveryEntry, DeliveryReportState } from "./call-record.js";

/*
 * A call's delivery outcomes on each device, kept in its record's status fields: the relay's `call-delivery` frames
 * (one per device and outcome, replayed on every resume) and this device's own reports of them.
 */

type DeliveryReports = NonNullable<CallRecord["status"]["deliveryReports"]>;

/** The device outcomes this device reports about itself, in the order a call reaches them. */
const DEVICE_DELIVERY_OUTCOMES: readonly DeviceDeliveryOutcome[] = ["shown", "opened"];

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

function isDeviceOutcome(outcome: DeliveryOutcome): outcome is DeviceDeliveryOutcome {
  return (DEVICE_DELIVERY_OUTCOMES as readonly string[]).includes(outcome);
}

/**
 * The record with one delivery outcome merged into its status fields (never into the event): the record itself
 * when it already has that device's outcome. This device's own outcome also settles its report.
 */
export function withDelivery(record: CallRecord, delivery: CallDelivery, thisDeviceId: string): CallRecord {
  const entry: DeliveryEntry = {
    deviceId: delivery.deviceId,
    deviceName: delivery.deviceName,
    outcome: delivery.outcome,
    at: delivery.at,
  };
  const existing = record.status.deliveries;
  const deliveries = mergeDeliveries(existing, [entry]);
  const settled =
    delivery.deviceId === thisDeviceId && isDeviceOutcome(delivery.outcome)
      ? withDeliveryReport(record, delivery.outcome, "reported")
      : record;
  if (deliveries === existing) return settled;
  return { ...settled, status: { ...settled.status, deliveries } };
}

/** The record with this device's report of `outcome` in `state`; a settled report never goes back to pending. */
export function withDeliveryReport(
  record: CallRecord,
  outcome: DeviceDeliveryOutcome,
  state: DeliveryReportState,
): CallRecord {
  const reports = mergeDeliveryReports(record.status.deliveryReports, { [outcome]: state });
  if (reports?.[outcome] === record.status.deliveryReports?.[outcome]) return record;
  return { ...record, status: { ...record.status, deliveryReports: reports } };
}

/** This device's outcomes of the call that the relay does not have yet. */
export function pendingDeliveryReports(record: CallRecord): DeviceDeliveryOutcome[] {
  const reports = record.status.deliveryReports ?? {};
  return DEVICE_DELIVERY_OUTCOMES.filter((outcome) => reports[outcome] === "pending");
}

/** The record with the device that answered it, from the relay's `call-status`; the record itself otherwise. */
export function withAnswer(record: CallRecord, change: CallStatusChange): CallRecord {
  if (change.status !== "answered" || change.deviceId === null) return record;
  const known = record.status.answeredBy;
  if (known?.deviceId === change.deviceId && known.at === change.at) return record;
  return {
    ...record,
    status: { ...record.status, answeredBy: { deviceId: change.deviceId, at: change.at } },
  };
}
