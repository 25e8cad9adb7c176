import { failedCalls, isTestCall, type ReadingProblem } from "@ringback/client";
import { CORE_TEXTS, NEEDS_YOU_TEXTS, PROBLEM_TEXTS } from "@ringback/client/texts";
import { askOutcomesElsewhere, needsYouStatusText } from "@ringback/client/views";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { type VoiceProblem, voiceFailureText } from "../../app/voice/voice-problem.js";
import { formatTime } from "../shared/format.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";
import { FleetCard } from "./fleet-card.js";
import { PresenceSwitches } from "./presence-switches.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
  readonly onShowCalls: () => void;
}

/**
 * The idle page: connection state, how to get a first call (until one came: a test call that rings here now), ring
 * mode, every computer's agents (the fleet card), reports whose voice could not be prepared, missed calls, and the
 * "I'm away" switch of each computer.
 */
export function IdleScreen({ controller, view, onShowCalls }: Props) {
  const t = texts(CORE_TEXTS, view.interfaceLanguage);
  const pt = texts(PROBLEM_TEXTS, view.interfaceLanguage);
  useObservable(controller.ringModes);
  const outlook = controller.ringModes.outlook(new Date());
  const failed = failedCalls(view.calls);
  const nt = texts(NEEDS_YOU_TEXTS, view.interfaceLanguage);
  const decidedElsewhere = askOutcomesElsewhere(
    view.calls.records,
    view.pairing?.identity.deviceId ?? null,
    new Date(),
  );
  const hasHadRealCall = Object.keys(view.calls.records).some((eventId) => !isTestCall(eventId));
  const missed = Object.values(view.calls.records).filter(
    (record) => record.status.state === "missed",
  ).length;
  const connectionText = {
    connecting: t.connectionConnecting,
    open: t.connectionOpen,
    offline: t.connectionOffline,
  }[view.connection];
  return (
    <section class="idle" data-testid="idle-screen">
      <p class={`connection ${view.connection}`} data-testid="connection-status" data-state={view.connection}>
        {connectionText}
      </p>
      {!hasHadRealCall && (
        <section class="card first-call" data-testid="first-call">
          <p>{t.firstCallHint}</p>
          <button
            type="button"
            class="primary"
            data-testid="ring-test-call"
            onClick={() => controller.ringTestCall()}
          >
            {t.ringTestCall}
          </button>
        </section>
      )}
      {!outlook.isAllowed && (
        <p class="notice" data-testid="ringing-paused">
          {outlook.changesAt
            ? t.ringingPaused(formatTime(outlook.changesAt.toISOString()))
            : t.ringingPausedNoEnd}
        </p>
      )}
      {decidedElsewhere.map(({ record, status }) => (
        <p class="notice" key={record.eventId} data-testid="ask-outcome" data-event-id={record.eventId}>
          {controller.reading.script(record).title}: {needsYouStatusText(status, nt)}
        </p>
      ))}
      <FleetCard controller={controller} view={view} onShowCalls={onShowCalls} />
      {missed > 0 && (
        <button type="button" class="missed-banner" data-testid="missed-banner" onClick={onShowCalls}>
          {t.missedCalls(missed)}
        </button>
      )}
      {failed.map((record) => {
        const script = controller.reading.script(record);
        return (
          <article
            class="card failed-report"
            key={record.eventId}
            data-testid="failed-report"
            data-event-id={record.eventId}
          >
            <h2>{script.title}</h2>
            <p class="time">{formatTime(record.occurredAt)}</p>
            <p class="notice">{t.voiceFailed(voiceFailureText(voiceFailure(record.status.failure), pt))}</p>
            <pre>{script.originalText}</pre>
            <div class="row">
              <button type="button" onClick={() => controller.calls.retry(record.eventId)}>
                {t.retry}
              </button>
              <button type="button" onClick={() => controller.calls.ignore(record.eventId)}>
                {t.ignore}
              </button>
            </div>
          </article>
        );
      })}
      {view.unreadable.length > 0 && (
        <p class="notice" data-testid="unreadable-calls">
          {t.unreadableCalls(view.unreadable.length)}{" "}
          {view.unreadable.some((call) => call.problem === "key_mismatch")
            ? t.unreadableKeyMismatch
            : t.unreadableDamaged}
        </p>
      )}
      <PresenceSwitches controller={controller} language={view.interfaceLanguage} />
    </section>
  );
}

/** The client keeps a reading failure as plain data; in this app only the browser voice writes it: a `VoiceProblem`. */
function voiceFailure(failure: ReadingProblem | string | null): VoiceProblem | string | null {
  return failure as VoiceProblem | string | null;
}
