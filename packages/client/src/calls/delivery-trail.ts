import type { DeliveryOutcome, DeviceKind } from "@ringback/protocol";
import type { CoreTexts } from "../i18n/texts/core.js";
import type { CallRecord } from "./call-record.js";
import { type DeliveryDevice, deliveryDeviceOf, readableEntryName } from "./delivery-device.js";

/** One step of a call on one device: a delivery outcome the relay recorded, or the answer. */
export type DeliveryStepKind = DeliveryOutcome | "answered";

export interface DeliveryStep {
  readonly kind: DeliveryStepKind;
  /** The device's name as recorded with an outcome; null when none of its outcomes names it or it cannot be read. */
  readonly deviceName: string | null;
  /** The device's kind, named when its name is not known; null when no record says it. */
  readonly deviceKind: DeviceKind | null;
  readonly isThisDevice: boolean;
  /** Null for an answer known only from the call's outcome (a replayed call does not name the device or time). */
  readonly at: string | null;
}

export type DeliveryTrailTexts = Pick<
  CoreTexts,
  | "deliveryPushed"
  | "deliveryShown"
  | "deliveryOpened"
  | "deliveryAnswered"
  | "deliveryThisDevice"
  | "deliveryAnotherDevice"
  | "deliveryTrail"
  | "deviceOfKind"
>;

const STEP_ORDER: Record<DeliveryStepKind, number> = { pushed: 0, shown: 1, opened: 2, answered: 3 };

/**
 * How far the call got on each device, oldest first: the delivery outcomes in the record, then who answered it (the
 * relay's `call-status`; this device's own answer; or "another device" when only the outcome says so).
 */
export function deliverySteps(record: CallRecord, thisDeviceId: string | null): DeliveryStep[] {
  const deliveries = record.status.deliveries ?? [];
  const device = (found: DeliveryDevice) => ({ deviceName: found.name, deviceKind: found.kind });
  const steps: DeliveryStep[] = deliveries.map((entry) => ({
    kind: entry.outcome,
    deviceName: readableEntryName(entry),
    deviceKind: entry.deviceKind ?? null,
    isThisDevice: entry.deviceId === thisDeviceId,
    at: entry.at,
  }));
  const { answeredBy, outcome, answeredAt } = record.status;
  if (answeredBy) {
    const isThisDevice = answeredBy.deviceId === thisDeviceId;
    steps.push({
      kind: "answered",
      ...device(deliveryDeviceOf(record, answeredBy.deviceId)),
      isThisDevice,
      at: answeredBy.at,
    });
  } else if (outcome === "answered" && answeredAt) {
    const own = device(deliveryDeviceOf(record, thisDeviceId));
    steps.push({ kind: "answered", ...own, isThisDevice: true, at: answeredAt });
  } else if (outcome === "answered-elsewhere") {
    steps.push({ kind: "answered", deviceName: null, deviceKind: null, isThisDevice: false, at: null });
  }
  return steps.sort(byTimeThenOrder);
}

/**
 * By the second shown, then in the order a call reaches its steps: an answer stamped by this device's clock and the
 * relay's record of "opened" a few milliseconds later read as opened, then answered.
 */
function byTimeThenOrder(a: DeliveryStep, b: DeliveryStep): number {
  const secondA = a.at === null ? Number.POSITIVE_INFINITY : Math.floor(Date.parse(a.at) / 1000);
  const secondB = b.at === null ? Number.POSITIVE_INFINITY : Math.floor(Date.parse(b.at) / 1000);
  if (secondA !== secondB) return secondA < secondB ? -1 : 1;
  return STEP_ORDER[a.kind] - STEP_ORDER[b.kind];
}

/**
 * The steps as one line, e.g. "Pushed to Phone 14:02:10 · shown on Phone 14:02:11 · answered on Laptop 14:02:20";
 * empty when there are none. `clock` formats a step's time.
 */
export function deliveryTrailText(
  steps: readonly DeliveryStep[],
  t: DeliveryTrailTexts,
  clock: (iso: string) => string,
): string {
  if (steps.length === 0) return "";
  const parts = steps.map((step) => {
    const device = step.deviceName ?? (step.isThisDevice ? t.deliveryThisDevice : otherDevice(step, t));
    const time = step.at === null ? "" : clock(step.at);
    return STEP_TEXT[step.kind](t)(device, time).trim();
  });
  return t.deliveryTrail(parts);
}

/** Another device whose name is not known: by its kind when a record says it. */
function otherDevice(step: DeliveryStep, t: DeliveryTrailTexts): string {
  return step.deviceKind ? t.deviceOfKind(step.deviceKind) : t.deliveryAnotherDevice;
}

const STEP_TEXT: Record<
  DeliveryStepKind,
  (t: DeliveryTrailTexts) => (device: string, time: string) => string
> = {
  pushed: (t) => t.deliveryPushed,
  shown: (t) => t.deliveryShown,
  opened: (t) => t.deliveryOpened,
  answered: (t) => t.deliveryAnswered,
};
