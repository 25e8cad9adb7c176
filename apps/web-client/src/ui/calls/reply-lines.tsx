import type { CallRecord } from "@ringback/client";
import { CORE_TEXTS, IN_CALL_TEXTS, type InterfaceLanguage } from "@ringback/client/texts";
import { replyDeliveryText, replyLines } from "@ringback/client/views";
import { formatTime } from "../shared/format.js";
import { texts } from "../shared/use-texts.js";

/** The replies sent on a call, each with where its delivery stands and when it was sent. */
export function ReplyLines({
  record,
  language,
}: {
  readonly record: CallRecord;
  readonly language: InterfaceLanguage;
}) {
  const t = texts(CORE_TEXTS, language);
  const it = texts(IN_CALL_TEXTS, language);
  const lines = replyLines(record);
  if (lines.length === 0) return null;
  return (
    <ul class="replies" aria-label={it.replies}>
      {lines.map(({ reply, status }) => (
        <li key={reply.replyId} data-testid="reply-line" data-reply-id={reply.replyId}>
          <span class="reply-text">{reply.text}</span>{" "}
          <span class={`reply-status ${status.kind}`} data-testid="reply-status" data-kind={status.kind}>
            {replyDeliveryText(status, t)}
          </span>{" "}
          <time class="hint" dateTime={reply.sentAt}>
            {it.sentAt(formatTime(reply.sentAt))}
          </time>
        </li>
      ))}
    </ul>
  );
}
