import type {
  CallRing,
  CallStatusWrite,
  DeviceDeliveryOutcome,
  PermissionVerdict,
  ReportSource,
  SealedReportPayload,
} from "@ringback/protocol";
import {
  type DeliveryEntry,
  type DeliveryReportState,
  mergeDeliveries,
  mergeDeliveryReports,
} from "./delivery-entries.js";

/** The states of the spec's "Call lifecycle in the companion app" table, plus `failed` (voice generation failed). */
export type CallState =
  | "preparing"
  | "failed"
  | "queued"
  | "ringing"
  | "missed"
  | "in-call"
  | "ended"
  | "acknowledged";

/** The waiting states: a report received but not yet answered, missed or ended. */
export const WAITING_STATES: readonly CallState[] = ["preparing", "queued", "ringing"];

/** How a call ended, as the history shows it. */
export type CallOutcome =
  | "answered"
  | "answered-elsewhere"
  | "rejected"
  | "rejected-elsewhere"
  | "acknowledged"
  | "acknowledged-elsewhere"
  | "ended-elsewhere"
  | "expired"
  | "ignored";

/** Why a call is missed; each is a row of the lifecycle table. */
export type MissedReason =
  | "outside-ringing-period"
  | "learned-late"
  /** Raised before this device joined the account: it was meant for the devices there then. */
  | "before-joining"
  | "ringing-period-ended"
  | "interrupted"
  /** "Later" on the call's notification: this device stopped ringing; the others rang on. */
  | "set-aside"
  | "expired"
  /** A "needs you" call whose agent stopped waiting (its ask's `expiresAt` passed) before it was answered here. */
  | "stopped-waiting"
  /** A quiet call (its project rings only in a round-up, or is silent): it waits for the next round-up. */
  | "quiet"
  /** Skipped in a round-up: it waits among the missed calls for later. */
  | "skipped";

/** A decision this device sent on a "needs you" call; its delivery is `status.replyDeliveries[replyId]`. */
export interface SentVerdict {
  readonly replyId: string;
  readonly verdict: PermissionVerdict;
  /** The person's reason for a deny; null when none was given (never for an allow). */
  readonly reason: string | null;
  readonly sentAt: string;
}

/**
 * The delivery status of one reply sent after hang-up: `queued` until the computer settles it, then `delivered` or
 * `failed` with the decrypted reason (or the relay's plaintext one, such as "cannot decrypt reply").
 */
export interface ReplyDelivery {
  readonly status: string;
  readonly reason: string | null;
  /** The failure reason was sealed and could not be opened with this device's key. */
  readonly isReasonUnreadable?: boolean;
  readonly at: string;
}

/** The device that answered the call, as the relay's `call-status` said. */
export interface CallAnswer {
  readonly deviceId: string;
  readonly at: string;
}

/**
 * The status fields of a call record: the only fields a later status (from this device, another device or the
 * relay) may change. Everything else in the record is the event itself and what the user said about it.
 */
export interface CallStatusFields {
  readonly state: CallState;
  readonly outcome: CallOutcome | null;
  readonly missedReason: MissedReason | null;
  /** When the ringing screen was first shown on this device; a shown call never rings again after a restart. */
  readonly shownAt: string | null;
  readonly answeredAt: string | null;
  readonly endedAt: string | null;
  /** Why voice preparation failed, for the idle page (worded when shown; a string in records older than that). */
  readonly failure: ReadingProblem | string | null;
  /** The last status this device wrote back, re-reported when the relay pushes the call again. */
  readonly reportedStatus: CallStatusWrite | null;
  readonly replyDeliveries: Readonly<Record<string, ReplyDelivery>>;
  /** One entry per (device, outcome), at its first time. Absent in records stored before delivery outcomes. */
  readonly deliveries?: readonly DeliveryEntry[];
  /** This device's own outcomes and whether the relay has them. Absent as above. */
  readonly deliveryReports?: Readonly<Partial<Record<DeviceDeliveryOutcome, DeliveryReportState>>>;
  /** Who answered, when the relay named the device. Absent as above. */
  readonly answeredBy?: CallAnswer;
}

/** The issue fields the calls page refreshes through `POST /tracker/issues`. */
export interface CallIssue {
  readonly workspaceId: string;
  readonly workspaceName: string | null;
  readonly issueId: string;
  readonly projectId: string | null;
  readonly projectName: string | null;
  readonly priority: string;
  readonly updatedAt: string | null;
}

export interface ConversationEntry {
  readonly role: "user" | "assistant";
  readonly text: string;
  readonly at: string;
}

/** The user's statement that settled an open question of the brief (see questions/decisions.ts). */
export interface DecisionEntry {
  readonly text: string;
  readonly at: string;
  /** The open question it settles. */
  readonly question?: string;
}

export interface SentReply {
  readonly replyId: string;
  readonly text: string;
  readonly sentAt: string;
}

/** A call record, stored as `call.<eventId>`: the whole event, conversation, decisions, sent replies, status. */
export interface CallRecord {
  readonly eventId: string;
  readonly source: ReportSource;
  /** When the report was raised (the relay's routing plaintext). */
  readonly occurredAt: string;
  /** When this device first learned of it. */
  readonly learnedAt: string;
  /** The computer that reported it (the relay's `fromDeviceId`); replies and relayed daemon requests go there. */
  readonly fromDeviceId: string | null;
  readonly payload: SealedReportPayload;
  readonly issue: CallIssue | null;
  readonly conversation: readonly ConversationEntry[];
  readonly decisions: readonly DecisionEntry[];
  readonly replies: readonly SentReply[];
  /** This device's decision on a "needs you" call (Allow once or Deny); absent until one is sent. */
  readonly verdict?: SentVerdict;
  /** `quiet`: its computer posted it not to ring (a round-up-only or silent project). Absent: it rings. */
  readonly ring?: CallRing;
  readonly status: CallStatusFields;
}

/** The routing plaintext of a relayed event that the record keeps. */
export interface CallRouting {
  readonly eventId: string;
  readonly source: ReportSource;
  readonly occurredAt: string;
  readonly fromDeviceId?: string | null;
  /** The relay's `ring` (absent from older relays and for calls that ring). */
  readonly ring?: CallRing;
}

const INITIAL_STATUS: CallStatusFields = {
  state: "preparing",
  outcome: null,
  missedReason: null,
  shownAt: null,
  answeredAt: null,
  endedAt: null,
  failure: null,
  reportedStatus: null,
  replyDeliveries: {},
};

export function newCallRecord(
  routing: CallRouting,
  payload: SealedReportPayload,
  learnedAt: Date,
): CallRecord {
  const tracker = payload.report.tracker;
  return {
    eventId: routing.eventId,
    source: routing.source,
    occurredAt: routing.occurredAt,
    learnedAt: learnedAt.toISOString(),
    fromDeviceId: routing.fromDeviceId ?? null,
    payload,
    issue: tracker
      ? {
          workspaceId: tracker.workspaceId,
          workspaceName: tracker.workspaceName ?? null,
          issueId: tracker.issueId,
          projectId: tracker.projectId ?? null,
          projectName: tracker.projectName ?? null,
          priority: tracker.priority ?? "none",
          updatedAt: tracker.issueUpdatedAt ?? null,
        }
      : null,
    conversation: [],
    decisions: [],
    replies: [],
    ...(routing.ring === undefined ? {} : { ring: routing.ring }),
    status: INITIAL_STATUS,
  };
}

/** A copy of the record with some status fields changed. */
export function withStatus(record: CallRecord, change: Partial<CallStatusFields>): CallRecord {
  return { ...record, status: { ...record.status, ...change } };
}

/**
 * The spec's merge rule: a later delivery status of a call merges only into the status fields; the event,
 * conversation, decisions and replies already on the device stay as they are.
 */
export function mergeLaterStatus(existing: CallRecord, later: CallRecord): CallRecord {
  const status: CallStatusFields = {
    ...existing.status,
    ...later.status,
    replyDeliveries: { ...existing.status.replyDeliveries, ...later.status.replyDeliveries },
  };
  // Delivery entries and report states only ever grow, so neither side's may be lost (absent in older records).
  const deliveries = mergeDeliveries(existing.status.deliveries, later.status.deliveries);
  const deliveryReports = mergeDeliveryReports(existing.status.deliveryReports, later.status.deliveryReports);
  return {
    ...existing,
    status: {
      ...status,
      ...(deliveries ? { deliveries } : {}),
      ...(deliveryReports ? { deliveryReports } : {}),
    },
  };
}

export function isWaiting(record: CallRecord): boolean {
  return WAITING_STATES.includes(record.status.state);
}

/** History holds calls that ended on this device or elsewhere; the calls page lists missed calls apart. */
export function isInHistory(record: CallRecord): boolean {
  return record.status.state === "ended" || record.status.state === "acknowledged";
}

/**
 * Why the app's voice could not prepare or read a call: plain data with a kind and its facts, as the app's speech
 * adapter reports it (the web app's `VoiceProblem`), worded only when shown.
 */
export interface ReadingProblem {
  readonly kind: string;
}
