import type { DispatchController, DispatchView } from "@ringback/client";
import type { DISPATCH_TEXTS, InterfaceLanguage } from "@ringback/client/texts";
import type { DispatchRecord } from "@ringback/protocol";
import { ProblemNote, RequestProblem } from "./problem-note.js";

type DispatchTexts = (typeof DISPATCH_TEXTS)["en"];

/** "#12" when the tracker gave no identifier. */
export function issueLabel(record: DispatchRecord): string {
  return record.issueIdentifier ?? (record.issueNumber === null ? "" : `#${record.issueNumber}`);
}

/**
 * After the dispatch: "calling" (with the call-waiting tone) until the issue exists, then "dispatched" with its
 * number and title; or failed, or cancelled. The user may cancel or leave to "my dispatches".
 */
export function CallingScreen(props: {
  controller: DispatchController;
  view: DispatchView;
  t: DispatchTexts;
  language: InterfaceLanguage;
}) {
  const { controller, view, t, language } = props;
  const record = view.current;
  if (!record) return null;
  const heading = {
    calling: t.calling,
    dispatched: t.dispatched,
    failed: t.failed,
    cancelled: t.cancelled,
    compose: "",
    sending: "",
  }[view.stage];
  return (
    <section class="dispatch-calling card" data-testid="dispatch-calling" data-stage={view.stage}>
      <h2 data-testid="dispatch-stage">{heading}</h2>
      {view.stage === "calling" && <p class="hint">{t.callingLead}</p>}
      {view.stage === "dispatched" &&
        (record.kind === "comment" && record.issueNumber === null ? (
          <p>{t.commentPosted}</p>
        ) : (
          <p class="dispatched-issue" data-testid="dispatched-issue">
            <span data-testid="dispatched-number">{issueLabel(record)}</span>{" "}
            <span data-testid="dispatched-title">{record.title}</span>
          </p>
        ))}
      {view.stage === "failed" && (
        <ProblemNote reason={t.taskFailed} detail={record.error} testId="dispatch-failure" t={t} />
      )}
      {view.lookupProblem && (
        <RequestProblem
          problem={view.lookupProblem}
          language={language}
          lead={t.lookupProblem}
          tone="notice"
          t={t}
        />
      )}
      {view.problem && <RequestProblem problem={view.problem} language={language} t={t} />}
      <div class="row">
        {view.stage === "calling" && (
          <button
            type="button"
            class="cancel-dispatch"
            data-testid="dispatch-cancel"
            onClick={() => controller.cancel()}
          >
            {t.cancel}
          </button>
        )}
        <button
          type="button"
          data-testid="dispatch-leave"
          onClick={() =>
            controller
              .leave()
              .then(() => document.querySelector('[data-testid="my-dispatches"]')?.scrollIntoView())
              .catch(() => undefined)
          }
        >
          {t.leave}
        </button>
        {view.stage !== "calling" && (
          <button type="button" data-testid="dispatch-new" onClick={() => controller.startNew()}>
            {t.newDispatch}
          </button>
        )}
      </div>
    </section>
  );
}
