import { type CallRecord, DecisionError, type DecisionProblem, needsYouAsk } from "@ringback/client";
import type { InterfaceLanguage, NeedsYouTexts } from "@ringback/client/texts";
import { NEEDS_YOU_TEXTS } from "@ringback/client/texts";
import { canDecide, needsYouStatus, needsYouStatusText } from "@ringback/client/views";
import type { PermissionVerdict } from "@ringback/protocol";
import { useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { errorText } from "../shared/error-text.js";
import { useBusyAction } from "../shared/use-busy-action.js";
import { texts } from "../shared/use-texts.js";
import { AskCards } from "./ask-cards.js";
import { DenyReason } from "./deny-reason.js";
import { useNowUntil } from "./use-now-until.js";

interface Props {
  readonly controller: AppController;
  readonly record: CallRecord;
  readonly language: InterfaceLanguage;
  /** The brief's language: a spoken reason is recognised in it. */
  readonly speechLanguage: string;
}

const PROBLEM_TEXT: Record<DecisionProblem, (t: NeedsYouTexts) => string> = {
  "not-needs-you": (t) => t.notInCall,
  "not-in-call": (t) => t.notInCall,
  "stopped-waiting": (t) => t.stoppedWaiting,
  "already-decided": (t) => t.alreadyDecided,
  "no-computer": (t) => t.noComputer,
};

/**
 * A "needs you" call's answer: the exact request (the brief's card, whole), Allow once and Deny with an optional
 * typed or spoken reason, and where the decision stands. The buttons go off when the agent stops waiting.
 */
export function DecisionBox({ controller, record, language, speechLanguage }: Props) {
  const t = texts(NEEDS_YOU_TEXTS, language);
  const ask = needsYouAsk(record);
  const now = useNowUntil(ask?.expiresAt ?? null);
  const [reason, setReason] = useState("");
  const { busy, failure, run } = useBusyAction<"sending">();
  const thisDeviceId = controller.view.pairing?.identity.deviceId ?? null;
  const status = needsYouStatus(record, thisDeviceId, now);
  if (!ask || !status) return null;
  const isLive = canDecide(status) && busy === null;
  const statusText = needsYouStatusText(status, t);

  const decide = (verdict: PermissionVerdict) =>
    run("sending", () =>
      controller.calls.decide(record.eventId, verdict, verdict === "deny" ? reason : null),
    );
  const failureText = (error: unknown) =>
    error instanceof DecisionError
      ? PROBLEM_TEXT[error.problem](t)
      : t.sendFailed(errorText(error, language));

  return (
    <section class="ask" data-testid="needs-you" data-status={status.kind}>
      <h2 class="ask-title">{t.askTitle}</h2>
      <AskCards record={record} lastWords={ask.lastWords} />
      {statusText && (
        <p class={`ask-status ${status.kind}`} data-testid="needs-you-status" data-kind={status.kind}>
          {statusText}
        </p>
      )}
      <p class="hint">{t.askHint}</p>
      <DenyReason
        reason={reason}
        isLive={isLive}
        speechLanguage={speechLanguage}
        t={t}
        setReason={setReason}
      />
      {failure && (
        <p class="error" data-testid="decision-error">
          {failureText(failure.error)}
        </p>
      )}
      <div class="decision-buttons">
        <button
          type="button"
          class="deny"
          data-testid="deny-button"
          disabled={!isLive}
          onClick={() => decide("deny").catch(() => undefined)}
        >
          {t.deny}
        </button>
        <button
          type="button"
          class="allow"
          data-testid="allow-button"
          disabled={!isLive}
          onClick={() => decide("allow").catch(() => undefined)}
        >
          {t.allowOnce}
        </button>
      </div>
    </section>
  );
}
