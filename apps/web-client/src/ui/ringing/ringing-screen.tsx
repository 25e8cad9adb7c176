import { useEffect } from "preact/hooks";
import type { CallRecord } from "../../app/calls/call-record.js";
import { type AppController, callerName } from "../../app/controller/app-controller.js";
import { formatTime } from "../shared/format.js";

interface Props {
  readonly controller: AppController;
  readonly record: CallRecord;
  readonly isSoundBlocked: boolean;
}

/** An incoming call: who is calling and the first line, Answer and Reject. Visible even when sound is blocked. */
export function RingingScreen({ controller, record, isSoundBlocked }: Props) {
  useEffect(() => controller.ringShown(record.eventId), [controller, record.eventId]);
  const script = controller.script(record);
  return (
    <main class="screen ringing" data-testid="ringing-screen" data-event-id={record.eventId}>
      <p class="ringing-label">Incoming call</p>
      <h1 class="caller" data-testid="caller">
        {callerName(record)}
      </h1>
      <p class="first-line" data-testid="ringing-title">
        {script.title}
      </p>
      <p class="time">{formatTime(record.occurredAt)}</p>
      {isSoundBlocked && (
        <button type="button" class="sound-blocked" onClick={() => controller.enableSound()}>
          Sound is blocked by the browser: tap to ring out loud
        </button>
      )}
      <div class="call-buttons">
        <button
          type="button"
          class="reject"
          data-testid="reject-button"
          onClick={() => controller.reject(record.eventId)}
        >
          Reject
        </button>
        <button
          type="button"
          class="answer"
          data-testid="answer-button"
          onClick={() => controller.answer(record.eventId)}
        >
          Answer
        </button>
      </div>
    </main>
  );
}
