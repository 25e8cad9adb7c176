import {
  askProject,
  type CallRecord,
  type CallsModel,
  isNeedsYou,
  ringsAsNeedsYou,
  ringtoneItemOf,
} from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { CORE_TEXTS, FLEET_TEXTS, NEEDS_YOU_TEXTS } from "@ringback/client/texts";
import { useEffect } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { formatTime } from "../shared/format.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly record: CallRecord;
  readonly isSoundBlocked: boolean;
  readonly language: InterfaceLanguage;
  /** Every call, to ring once for all that wait (a round-up). */
  readonly calls: CallsModel;
}

/**
 * An incoming call: who is calling and the first line, Answer and Reject. Visible even when sound is blocked. A
 * "needs you" call (an agent waits for permission, or a tracker agent asks a question) says so, with the agent and
 * the project of a permission ask, and rings its own tone. When more calls wait, it rings once for them all and
 * lists them; Answer starts their round-up.
 */
export function RingingScreen({ controller, record, isSoundBlocked, language, calls }: Props) {
  const t = texts(CORE_TEXTS, language);
  const nt = texts(NEEDS_YOU_TEXTS, language);
  const ft = texts(FLEET_TEXTS, language);
  const roundUpItems = controller.roundUp.waitingItems(calls);
  useEffect(() => controller.calls.ringShown(record.eventId), [controller, record.eventId]);
  const script = controller.reading.script(record);
  const isAsk = ringsAsNeedsYou(record);
  const project = isNeedsYou(record) ? askProject(record) : null;
  const sound = controller.ringtones.sound(ringtoneItemOf(record));
  return (
    <main
      class={isAsk ? "screen ringing needs-you" : "screen ringing"}
      data-testid="ringing-screen"
      data-event-id={record.eventId}
      data-kind={isAsk ? "needs-you" : "finished"}
      data-ringtone={ringtoneItemOf(record)}
      data-tone={sound.kind === "tone" ? sound.tone.id : sound.kind}
    >
      <p class="ringing-label" data-testid="ringing-label">
        {roundUpItems.length > 1
          ? ft.roundUpAgents(roundUpItems.length)
          : isAsk
            ? nt.needsYou
            : t.incomingCall}
      </p>
      <h1 class="caller" data-testid="caller">
        {controller.callerName(record)}
      </h1>
      {project && (
        <p class="ask-project" data-testid="ask-project">
          {nt.inProject(project)}
        </p>
      )}
      <p class="first-line" data-testid="ringing-title">
        {script.title}
      </p>
      <p class="time">{formatTime(record.occurredAt)}</p>
      {roundUpItems.length > 1 && (
        <ol class="round-up-list" data-testid="round-up-list">
          {roundUpItems.map((item) => (
            <li key={item.eventId} data-event-id={item.eventId} data-kind={item.kind}>
              {item.headline ? `${item.project}: ${item.headline}` : item.project}
            </li>
          ))}
        </ol>
      )}
      {isSoundBlocked && (
        <button type="button" class="sound-blocked" onClick={() => controller.sound.enable()}>
          {t.soundBlocked}
        </button>
      )}
      <div class="call-buttons">
        <button
          type="button"
          class="reject"
          data-testid="reject-button"
          onClick={() => controller.calls.reject(record.eventId)}
        >
          {t.reject}
        </button>
        <button
          type="button"
          class="answer"
          data-testid="answer-button"
          onClick={() => controller.roundUp.answer(record.eventId)}
        >
          {t.answer}
        </button>
      </div>
    </main>
  );
}
