import { type CallRecord, isNeedsYou, ringsAsNeedsYou } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { CORE_TEXTS, NEEDS_YOU_TEXTS } from "@ringback/client/texts";
import {
  canDecide,
  deliverySteps,
  deliveryTrailText,
  needsYouStatus,
  needsYouStatusText,
} from "@ringback/client/views";
import type { AppController } from "../../app/controller/app-controller.js";
import { formatClock, formatTime, statusText } from "../shared/format.js";
import { texts } from "../shared/use-texts.js";
import { CallConversation } from "./call-conversation.js";
import { ReplyBox } from "./reply-box.js";

interface Props {
  readonly controller: AppController;
  readonly record: CallRecord;
  readonly kind: "missed" | "history";
  readonly language: InterfaceLanguage;
}

/**
 * One call: time to the second (the issue's update time on hover), caller, first line, answer or status, and how far
 * it got on each device.
 */
export function CallRow({ controller, record, kind, language }: Props) {
  const t = texts(CORE_TEXTS, language);
  const script = controller.reading.script(record);
  const issueUpdated = record.issue?.updatedAt
    ? t.issueUpdated(formatTime(record.issue.updatedAt))
    : undefined;
  const thisDeviceId = controller.view.pairing?.identity.deviceId ?? null;
  const trail = deliveryTrailText(deliverySteps(record, thisDeviceId), t, formatClock);
  // A permission ask says who decided (or that the agent stopped waiting); it takes no reply. A tracker question is
  // tagged "needs you" too, and takes a reply.
  const isAsk = isNeedsYou(record);
  const decision = needsYouStatus(record, thisDeviceId, new Date());
  const decisionText = decision ? needsYouStatusText(decision, texts(NEEDS_YOU_TEXTS, language)) : "";
  return (
    <li class={`call-row ${kind}`} data-testid={`${kind}-row`} data-event-id={record.eventId}>
      <time class="time" dateTime={record.occurredAt} title={issueUpdated}>
        {formatTime(record.occurredAt)}
      </time>
      <span class="caller">
        {ringsAsNeedsYou(record) && (
          <span class="needs-you-tag">{texts(NEEDS_YOU_TEXTS, language).needsYou} · </span>
        )}
        {controller.callerName(record)}
      </span>
      <span class="title">{script.title}</span>
      {kind === "missed" && decision !== null && !canDecide(decision) ? (
        // Nothing to answer: the agent stopped waiting, or the ask was settled elsewhere. The request can still be read.
        <button
          type="button"
          class="open-missed"
          data-testid="open-missed"
          onClick={() => controller.calls.answer(record.eventId)}
        >
          {texts(NEEDS_YOU_TEXTS, language).seeRequest}
        </button>
      ) : kind === "missed" ? (
        <button
          type="button"
          class="answer"
          data-testid="answer-missed"
          onClick={() => controller.calls.answer(record.eventId)}
        >
          {t.answer}
        </button>
      ) : (
        <span class="status" data-testid="history-status">
          {statusText(record, t)}
        </span>
      )}
      {decisionText && (
        <p class="needs-you-status" data-testid="needs-you-status" data-kind={decision?.kind}>
          {decisionText}
        </p>
      )}
      {trail && (
        <p class="delivery-trail" data-testid="delivery-trail">
          {trail}
        </p>
      )}
      {kind === "history" && (
        <div class="call-detail">
          <CallConversation record={record} t={t} />
          {!isAsk && <ReplyBox controller={controller} record={record} language={language} />}
        </div>
      )}
    </li>
  );
}
