import type { DispatchProblem } from "@ringback/client";
import type { DISPATCH_TEXTS, InterfaceLanguage } from "@ringback/client/texts";
import { problemText } from "./problem-text.js";

type DispatchTexts = (typeof DISPATCH_TEXTS)["en"];

/**
 * What went wrong in words a person can act on (`lead`, then the reason), with the raw message of the computer or the
 * tracker only behind a "Details" disclosure.
 */
export function ProblemNote(props: {
  lead?: string;
  reason: string;
  detail: string | null;
  tone?: "error" | "notice";
  testId?: string;
  t: DispatchTexts;
}) {
  const { lead, reason, detail, t } = props;
  return (
    <div class={`problem-note ${props.tone ?? "error"}`} data-testid={props.testId}>
      <p data-testid="problem-reason">{lead ? `${lead} ${reason}` : reason}</p>
      {detail && detail !== reason && (
        <details class="problem-details">
          <summary>{t.details}</summary>
          <p data-testid="problem-detail">{detail}</p>
        </details>
      )}
    </div>
  );
}

/** A failed request's note: its reason from the code, its raw message as the details. */
export function RequestProblem(props: {
  problem: DispatchProblem;
  language: InterfaceLanguage;
  lead?: string;
  tone?: "error" | "notice";
  testId?: string;
  t: DispatchTexts;
}) {
  const { problem, language, ...rest } = props;
  return <ProblemNote {...rest} reason={problemText(problem, language)} detail={problem.message} />;
}
