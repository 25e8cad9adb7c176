import type { Decision } from "./use-decision.js";

/**
 * Allow once and Deny while they can still work; once decided (or once the agent stopped waiting), what happened in
 * their place. A refused decision shows why, and the buttons again for another try.
 */
export function DecisionButtons({ decision }: { readonly decision: Decision }) {
  const { t, status } = decision;
  const verdict = "verdict" in status ? status.verdict : null;
  return (
    <>
      {decision.statusText && (
        <p
          class={`decision-outcome ${status.kind}${verdict ? ` ${verdict}` : ""}`}
          data-testid="needs-you-status"
          data-kind={status.kind}
          role="status"
        >
          {decision.statusText}
        </p>
      )}
      {decision.failureText && (
        <p class="error" data-testid="decision-error">
          {decision.failureText}
        </p>
      )}
      {decision.canDecide && (
        <div class="decision-buttons">
          <button
            type="button"
            class="deny"
            data-testid="deny-button"
            disabled={decision.isSending}
            onClick={() => decision.decide("deny")}
          >
            {t.deny}
          </button>
          <button
            type="button"
            class="allow"
            data-testid="allow-button"
            disabled={decision.isSending}
            onClick={() => decision.decide("allow")}
          >
            {t.allowOnce}
          </button>
        </div>
      )}
    </>
  );
}
