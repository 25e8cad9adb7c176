import type { PermissionVerdict } from "@ringback/protocol";
import type { Decision } from "./use-decision.js";

/** Deny on the left, Allow once on the right, as the ringing screen has Reject and Answer. */
const VERDICTS: readonly PermissionVerdict[] = ["deny", "allow"];

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
          {VERDICTS.map((choice) => (
            <button
              key={choice}
              type="button"
              class={choice}
              data-testid={`${choice}-button`}
              disabled={decision.isSending}
              onClick={() => decision.decide(choice)}
            >
              {choice === "allow" ? t.allowOnce : t.deny}
            </button>
          ))}
        </div>
      )}
    </>
  );
}
