import type { ReplyStatus } from "@ringback/protocol";
import { text } from "./columns.js";
import type { Row } from "./row-records.js";
import type { StreamEntry } from "./store.js";

export type ReplyEntry = StreamEntry & { kind: "reply-status" };

/** Which reply a status change is about. */
export interface ReplyKeys {
  readonly accountId: string;
  readonly eventId: string;
  readonly replyId: string;
}

/** A reply's new status, with its reason when it failed (sealed by the computer, or the relay's own plaintext). */
export interface ReplyStatusInput {
  readonly status: ReplyStatus;
  readonly sealedReason?: string | null;
  readonly plaintextReason?: string | null;
  readonly now: number;
}

export function replyKeys(row: Row): ReplyKeys {
  return { accountId: text(row.account_id), eventId: text(row.event_id), replyId: text(row.reply_id) };
}

/** The stream entry of a reply's status change just stored with `seq`. */
export function replyStatusEntry(keys: ReplyKeys, change: ReplyStatusInput, seq: number): ReplyEntry {
  return {
    kind: "reply-status",
    accountId: keys.accountId,
    seq,
    change: {
      seq,
      eventId: keys.eventId,
      replyId: keys.replyId,
      status: change.status,
      sealedReason: change.sealedReason ?? null,
      plaintextReason: change.plaintextReason ?? null,
      at: new Date(change.now).toISOString(),
    },
  };
}
