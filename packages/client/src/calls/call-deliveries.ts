import type { CallStatusChange, DeliveryOutcome, DeviceDeliveryOutcome } from "@ringback/protocol";
import type { ReadableDelivery } from "../devices/device-list.js";
import type { CallRecord } from "./call-record.js";
import {
  DEVICE_DELIVERY_OUTCOMES,
  type DeliveryEntry,
  type DeliveryReportState,
  mergeDeliveries,
  mergeDeliveryReports,
} from "./delivery-entries.js";

/*
 * A call's delivery outcomes on each device, kept in its record's status fields: the relay's `call-delivery` frames
 * (one per device and outcome, replayed on every resume) and this device's own reports of them.
 */

function isDeviceOutcome(outcome: DeliveryOutcome): outcome is DeviceDeliveryOutcome {
  return (DEVICE_DELIVERY_OUTCOMES as readonly string[]).includes(outcome);
}

/**
 * The record with one delivery outcome merged into its status fields (never into the event): the record itself
 * when it already has that device's outcome. This device's own outcome also settles its report.
 */
export function withDelivery(
  record: CallRecord,
  delivery: ReadableDelivery,
  thisDeviceId: string,
): CallRecord {
  const entry: DeliveryEntry = {
    deviceId: delivery.deviceId,
    deviceName: delivery.deviceName,
    ...(delivery.deviceKind ? { deviceKind: delivery.deviceKind } : {}),
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
