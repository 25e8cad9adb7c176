import type { DispatchController, DispatchView } from "@ringback/client";
import type { DISPATCH_TEXTS, InterfaceLanguage } from "@ringback/client/texts";
import type { DispatchRecord } from "@ringback/protocol";
import { issueLabel } from "./calling-screen.js";
import { RequestProblem } from "./problem-note.js";

type DispatchTexts = (typeof DISPATCH_TEXTS)["en"];

/** "My dispatches": the computer's records, newest first, each refreshed from the tracker as it is read. */
export function MyDispatches(props: {
  controller: DispatchController;
  view: DispatchView;
  t: DispatchTexts;
  language: InterfaceLanguage;
}) {
  const { controller, view, t, language } = props;
  const stateText: Record<DispatchRecord["state"], string> = {
    creating: t.stateCreating,
    created: t.stateCreated,
    failed: t.stateFailed,
    cancelled: t.stateCancelled,
  };
  return (
    <section class="my-dispatches" data-testid="my-dispatches">
      <header class="list-header">
        <h2>{t.myDispatches}</h2>
        <button type="button" data-testid="refresh-dispatches" onClick={() => controller.refreshDispatches()}>
          {t.refresh}
        </button>
      </header>
      {view.listProblem && <RequestProblem problem={view.listProblem} language={language} t={t} />}
      {view.dispatches?.length === 0 && <p class="empty">{t.noDispatches}</p>}
      <ul class="device-list">
        {(view.dispatches ?? []).map((record) => (
          <li key={record.id} data-testid="dispatch-row" data-state={record.state}>
            <span class="status">{stateText[record.state]}</span>{" "}
            {record.kind === "comment" && <span class="hint">{t.commentKind} </span>}
            <span>{[issueLabel(record), record.title ?? record.prompt].filter(Boolean).join(" ")}</span>{" "}
            {record.images > 0 && <span class="hint">{t.imagesCount(record.images)}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
