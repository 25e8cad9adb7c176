import { failedCalls } from "../../app/calls/call-machine.js";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { formatTime } from "../shared/format.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
  readonly onShowCalls: () => void;
}

const CONNECTION_TEXT = {
  connecting: "Connecting to the relay…",
  open: "Connected: waiting for calls.",
  offline: "Offline: reconnecting…",
} as const;

/** The idle page: connection state, reports whose voice could not be prepared (retry / ignore), missed calls. */
export function IdleScreen({ controller, view, onShowCalls }: Props) {
  const failed = failedCalls(view.calls);
  const missed = Object.values(view.calls.records).filter(
    (record) => record.status.state === "missed",
  ).length;
  return (
    <section class="idle" data-testid="idle-screen">
      <p class={`connection ${view.connection}`} data-testid="connection-status" data-state={view.connection}>
        {CONNECTION_TEXT[view.connection]}
      </p>
      {missed > 0 && (
        <button type="button" class="missed-banner" onClick={onShowCalls}>
          {missed === 1 ? "1 missed call" : `${missed} missed calls`}
        </button>
      )}
      {failed.map((record) => {
        const script = controller.script(record);
        return (
          <article
            class="card failed-report"
            key={record.eventId}
            data-testid="failed-report"
            data-event-id={record.eventId}
          >
            <h2>{script.title}</h2>
            <p class="time">{formatTime(record.occurredAt)}</p>
            <p class="notice">
              The voice could not be prepared, so this report did not ring: {record.status.failure}
            </p>
            <pre>{script.originalText}</pre>
            <div class="row">
              <button type="button" onClick={() => controller.retry(record.eventId)}>
                Retry
              </button>
              <button type="button" onClick={() => controller.ignore(record.eventId)}>
                Ignore
              </button>
            </div>
          </article>
        );
      })}
      {view.unreadable.length > 0 && (
        <p class="notice" data-testid="unreadable-calls">
          {view.unreadable.length === 1 ? "A call" : `${view.unreadable.length} calls`} could not be opened on
          this device.{" "}
          {view.unreadable.some((call) => call.problem === "key_mismatch")
            ? "Your computer uses another encryption key: join again with a new pairing link."
            : "The sealed data was damaged."}
        </p>
      )}
    </section>
  );
}
