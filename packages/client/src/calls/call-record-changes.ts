import type { CallStatusChange, DeviceDeliveryOutcome, IssueRefresh } from "@ringback/protocol";
import type { ReadableDelivery } from "../devices/device-list.js";
import { laterDelivery } from "../replies/reply.js";
import { withAnswer, withDelivery, withDeliveryReport } from "./call-deliveries.js";
import type { SentVerdict } from "./call-record.js";
import { type CallRecord, type ReplyDelivery, withStatus } from "./call-record.js";
import { applyIssueRefresh } from "./issue-refresh.js";

/**
 * What the user said about a call: its in-call conversation, decisions, the replies sent after hang-up, and the
 * verdict sent on a "needs you" call.
 */
export type CallContent = Pick<CallRecord, "conversation" | "decisions" | "replies" | "verdict">;

/**
 * Changes of what call records say that are no step of the call lifecycle: no call changes state, the ring queue
 * stays as it is and nothing is sent. They come from the relay (its stream, or its answer to this device) and from
 * the user; a call this device has no record of is left alone.
 */
export type CallRecordChange =
  /** The relay's `call-delivery`: how far the call got on one device (its name read with this device's key). */
  | { readonly type: "delivery-received"; readonly delivery: ReadableDelivery }
  /** The relay's `call-status`: who answered, for the history's delivery line (this device's own answers too). */
  | { readonly type: "answer-announced"; readonly change: CallStatusChange }
  /** The relay took this device's delivery report and answered with the delivery it recorded. */
  | {
      readonly type: "delivery-reported";
      readonly eventId: string;
      readonly outcome: DeviceDeliveryOutcome;
      readonly delivery: ReadableDelivery;
    }
  /** The relay refused this device's delivery report for good (404: the call is gone). */
  | { readonly type: "delivery-abandoned"; readonly eventId: string; readonly outcome: DeviceDeliveryOutcome }
  /** A reply after hang-up the relay accepted: kept with the relay's first status, both stamped now. */
  | {
      readonly type: "reply-sent";
      readonly eventId: string;
      readonly replyId: string;
      readonly text: string;
      readonly status: string;
    }
  /** A decision on a "needs you" call the relay accepted: kept with the relay's first status, stamped now. */
  | {
      readonly type: "verdict-sent";
      readonly eventId: string;
      readonly verdict: Omit<SentVerdict, "sentAt">;
      readonly status: string;
    }
  /** The relay's `reply-status`: a later delivery status of a sent reply (or of a decision). */
  | {
      readonly type: "reply-status";
      readonly eventId: string;
      readonly replyId: string;
      readonly delivery: ReplyDelivery;
    }
  /** What the user said in the call: merged into the record's content, its status fields left as they are. */
  | { readonly type: "content-changed"; readonly eventId: string; readonly change: Partial<CallContent> }
  /** The calls' tracker issues as the computers that reported them see them now. */
  | { readonly type: "issues-refreshed"; readonly refreshes: readonly IssueRefresh[] }
  /** Records storage deleted to make room leave memory too (never the ringing or active call: the newest). */
  | { readonly type: "records-evicted"; readonly eventIds: readonly string[] };

const RECORD_CHANGE_TYPES: Readonly<Record<CallRecordChange["type"], true>> = {
  "delivery-received": true,
  "answer-announced": true,
  "delivery-reported": true,
  "delivery-abandoned": true,
  "reply-sent": true,
  "verdict-sent": true,
  "reply-status": true,
  "content-changed": true,
  "issues-refreshed": true,
  "records-evicted": true,
};

/** Whether an action only changes what records say (no lifecycle step). */
export function isCallRecordChange(action: { readonly type: string }): action is CallRecordChange {
  return Object.hasOwn(RECORD_CHANGE_TYPES, action.type);
}

/** What a record change may read: the clock and who this device is (read only by the changes that need it). */
interface RecordChangeEnvironment {
  readonly now: Date;
  readonly deviceId: string;
}

type Records = Readonly<Record<string, CallRecord>>;
type OneRecordChange = Exclude<CallRecordChange, { type: "issues-refreshed" | "records-evicted" }>;

/** The records after one change: the same object when nothing changed. */
export function changeRecords(
  records: Records,
  change: CallRecordChange,
  env: RecordChangeEnvironment,
): Records {
  switch (change.type) {
    case "issues-refreshed":
      return mapRecords(records, (record) => applyIssueRefresh(record, change.refreshes));
    case "records-evicted": {
      const evicted = change.eventIds.filter((eventId) => records[eventId] !== undefined);
      if (evicted.length === 0) return records;
      const kept = { ...records };
      for (const eventId of evicted) delete kept[eventId];
      return kept;
    }
    default: {
      const eventId = eventIdOf(change);
      const record = records[eventId];
      if (!record) return records;
      const changed = changeRecord(record, change, env);
      return changed === record ? records : { ...records, [eventId]: changed };
    }
  }
}

function eventIdOf(change: OneRecordChange): string {
  switch (change.type) {
    case "delivery-received":
      return change.delivery.eventId;
    case "answer-announced":
      return change.change.eventId;
    default:
      return change.eventId;
  }
}

function changeRecord(record: CallRecord, change: OneRecordChange, env: RecordChangeEnvironment): CallRecord {
  switch (change.type) {
    case "delivery-received":
      return withDelivery(record, change.delivery, env.deviceId);
    case "answer-announced":
      return withAnswer(record, change.change);
    case "delivery-reported":
      return withDeliveryReport(
        withDelivery(record, change.delivery, env.deviceId),
        change.outcome,
        "reported",
      );
    case "delivery-abandoned":
      return withDeliveryReport(record, change.outcome, "abandoned");
    case "reply-sent": {
      const at = env.now.toISOString();
      const reply = { replyId: change.replyId, text: change.text, sentAt: at };
      const sent = { ...record, replies: [...record.replies, reply] };
      return withReplyDelivery(sent, change.replyId, { status: change.status, reason: null, at });
    }
    case "verdict-sent": {
      const at = env.now.toISOString();
      const decided = { ...record, verdict: { ...change.verdict, sentAt: at } };
      return withReplyDelivery(decided, change.verdict.replyId, { status: change.status, reason: null, at });
    }
    case "reply-status":
      return withReplyDelivery(record, change.replyId, change.delivery);
    case "content-changed":
      return { ...record, ...change.change };
  }
}

/** A reply's delivery status, merged only into the call's status fields; a queued one never replaces a settled one. */
function withReplyDelivery(record: CallRecord, replyId: string, delivery: ReplyDelivery): CallRecord {
  const deliveries = record.status.replyDeliveries;
  return withStatus(record, {
    replyDeliveries: { ...deliveries, [replyId]: laterDelivery(deliveries[replyId], delivery) },
  });
}

function mapRecords(records: Records, change: (record: CallRecord) => CallRecord): Records {
  let changed: Record<string, CallRecord> | null = null;
  for (const record of Object.values(records)) {
    const next = change(record);
    if (next === record) continue;
    changed ??= { ...records };
    changed[record.eventId] = next;
  }
  return changed ?? records;
}
