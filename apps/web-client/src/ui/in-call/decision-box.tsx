import { AskCards } from "./ask-cards.js";
import { DenyReason } from "./deny-reason.js";
import type { Decision } from "./use-decision.js";

interface Props {
  readonly decision: Decision;
  /** The brief's language: a spoken reason is recognised in it. */
  readonly speechLanguage: string;
}

/**
 * A permission ask's details in the call's scrolling area: the exact request (the brief's card, whole), and while
 * Allow and Deny can still work, the hint and Deny's optional typed or spoken reason. The buttons, or what happened,
 * are in the call's controls.
 */
export function DecisionBox({ decision, speechLanguage }: Props) {
  const { t, status } = decision;
  const isLive = decision.canDecide && !decision.isSending;
  return (
    <section class="ask" data-testid="needs-you" data-status={status.kind}>
      <h2 class="ask-title">{t.askTitle}</h2>
      <AskCards record={decision.record} lastWords={decision.lastWords} />
      {decision.canDecide && (
        <>
          <p class="hint">{t.askHint}</p>
          <DenyReason
            reason={decision.reason}
            isLive={isLive}
            speechLanguage={speechLanguage}
            t={t}
            pt={decision.pt}
            setReason={decision.setReason}
          />
        </>
      )}
    </section>
  );
}
