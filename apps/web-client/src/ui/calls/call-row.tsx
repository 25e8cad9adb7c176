import type { CallRecord } from "../../app/calls/call-record.js";
import { type AppController, callerName } from "../../app/controller/app-controller.js";
import { formatTime, statusText } from "../shared/format.js";

interface Props {
  readonly controller: AppController;
  readonly record: CallRecord;
  readonly kind: "missed" | "history";
}

/** One call: time to the second (the issue's update time on hover), caller, first line, and answer or status. */
export function CallRow({ controller, record, kind }: Props) {
  const script = controller.script(record);
  const issueUpdated = record.issue?.updatedAt
    ? `Issue updated ${formatTime(record.issue.updatedAt)}`
    : undefined;
  return (
    <li class={`call-row ${kind}`} data-testid={`${kind}-row`} data-event-id={record.eventId}>
      <time class="time" dateTime={record.occurredAt} title={issueUpdated}>
        {formatTime(record.occurredAt)}
      </time>
      <span class="caller">{callerName(record)}</span>
      <span class="title">{script.title}</span>
      {kind === "missed" ? (
        <button
          type="button"
          class="answer"
          data-testid="answer-missed"
          onClick={() => controller.answer(record.eventId)}
        >
          Answer
        </button>
      ) : (
        <span class="status" data-testid="history-status">
          {statusText(record)}
        </span>
      )}
    </li>
  );
}
