import type { DeviceKind, PermissionVerdict } from "@ringback/protocol";
import type { NeedsYouTexts } from "../i18n/texts/needs-you.js";
import { type ReplyStatusView, replyStatusView } from "../replies/reply-status-view.js";
import type { CallRecord } from "./call-record.js";
import { deliveryDeviceOf } from "./delivery-device.js";
import { hasStoppedWaiting, isNeedsYou } from "./needs-you.js";

/** Where a "needs you" call's decision stands, as a screen shows it beside (or instead of) Allow once and Deny. */
export type NeedsYouStatus =
  /** Nobody has decided and the agent still waits: the buttons are live. */
  | { readonly kind: "waiting" }
  /** Nobody decided in time: the buttons are off. */
  | { readonly kind: "stopped-waiting" }
  /** This device's decision is on its way to the computer. */
  | { readonly kind: "sending"; readonly verdict: PermissionVerdict }
  /** This device's decision reached the agent; `deviceName` is this device's as the relay knows it. */
  | { readonly kind: "decided"; readonly verdict: PermissionVerdict; readonly deviceName: string | null }
  /** The computer refused this device's decision, with its reason ("already decided", "the agent stopped waiting"). */
  | { readonly kind: "refused"; readonly verdict: PermissionVerdict; readonly why: ReplyStatusView }
  /**
   * Another device answered first. The relay names the device that answered (its name as this device reads it, else
   * its kind) and says when its decision reached the agent (`isDelivered`); the verdict itself is sealed for the
   * computer alone.
   */
  | {
      readonly kind: "decided-elsewhere";
      readonly deviceName: string | null;
      readonly deviceKind?: DeviceKind | null;
      readonly isDelivered: boolean;
    };

/** Where the call's decision stands at `now`; null for a call that is not a "needs you" call. */
export function needsYouStatus(
  record: CallRecord,
  thisDeviceId: string | null,
  now: Date,
): NeedsYouStatus | null {
  if (!isNeedsYou(record)) return null;
  const { verdict: sent, status } = record;
  if (sent) {
    const delivery = status.replyDeliveries[sent.replyId];
    if (!delivery || delivery.status === "queued") return { kind: "sending", verdict: sent.verdict };
    if (delivery.status === "delivered")
      return {
        kind: "decided",
        verdict: sent.verdict,
        deviceName: deliveryDeviceOf(record, thisDeviceId).name,
      };
    const why = replyStatusView(delivery);
    // A refused decision leaves the buttons live while the agent still waits: another try may be taken.
    return { kind: "refused", verdict: sent.verdict, why };
  }
  const answeredBy = status.answeredBy;
  const isAnsweredElsewhere =
    status.outcome === "answered-elsewhere" ||
    (answeredBy !== undefined && answeredBy.deviceId !== thisDeviceId);
  if (isAnsweredElsewhere) {
    const other = deliveryDeviceOf(
      record,
      answeredBy && answeredBy.deviceId !== thisDeviceId ? answeredBy.deviceId : null,
    );
    return {
      kind: "decided-elsewhere",
      deviceName: other.name,
      deviceKind: other.kind,
      isDelivered: Object.values(status.replyDeliveries).some((delivery) => delivery.status === "delivered"),
    };
  }
  return hasStoppedWaiting(record, now) ? { kind: "stopped-waiting" } : { kind: "waiting" };
}

/** Whether Allow once and Deny may be tapped: the agent still waits and no decision of this device is pending. */
export function canDecide(status: NeedsYouStatus | null): boolean {
  return status?.kind === "waiting" || status?.kind === "refused";
}

/** The status as one line ("Allowed on Pixel", "The agent stopped waiting"); empty while the buttons wait. */
export function needsYouStatusText(status: NeedsYouStatus, t: NeedsYouTexts): string {
  switch (status.kind) {
    case "waiting":
      return "";
    case "stopped-waiting":
      return t.stoppedWaiting;
    case "sending":
      return status.verdict === "allow" ? t.sendingAllow : t.sendingDeny;
    case "decided": {
      const device = status.deviceName ?? t.thisDevice;
      return status.verdict === "allow" ? t.allowedOn(device) : t.deniedOn(device);
    }
    case "refused":
      return t.refused(refusalText(status.why, t));
    case "decided-elsewhere": {
      const device = status.deviceName ?? (status.deviceKind ? t.deviceOfKind(status.deviceKind) : null);
      if (device === null) return t.answeredElsewhere;
      return status.isDelivered ? t.decidedOn(device) : t.answeredOn(device);
    }
  }
}

function refusalText(why: ReplyStatusView, t: NeedsYouTexts): string {
  switch (why.kind) {
    case "failed":
      return why.reason;
    case "expired":
      return t.stoppedWaiting;
    case "cannot-decrypt":
      return t.refusedCannotDecrypt;
    case "computer-removed":
      return t.refusedComputerRemoved;
    default:
      return t.refusedUnreadable;
  }
}

/** A "needs you" call decided on another device, as the idle page lists it while its ask is open. */
export interface AskOutcome {
  readonly record: CallRecord;
  readonly status: NeedsYouStatus;
}

/**
 * The "needs you" calls that stopped ringing here because another device answered them, while their agents would
 * still have waited (until the ask's expiry): the idle page says who decided, newest first.
 */
export function askOutcomesElsewhere(
  records: Readonly<Record<string, CallRecord>>,
  thisDeviceId: string | null,
  now: Date,
): AskOutcome[] {
  return Object.values(records)
    .filter((record) => record.status.outcome === "answered-elsewhere" && !hasStoppedWaiting(record, now))
    .flatMap((record) => {
      const status = needsYouStatus(record, thisDeviceId, now);
      return status?.kind === "decided-elsewhere" ? [{ record, status }] : [];
    })
    .sort((a, b) => b.record.occurredAt.localeCompare(a.record.occurredAt));
}
