import { type CallRecord, DecisionError, type DecisionProblem, needsYouAsk } from "@ringback/client";
import type { InterfaceLanguage, NeedsYouTexts } from "@ringback/client/texts";
import { NEEDS_YOU_TEXTS, PROBLEM_TEXTS, type ProblemTexts } from "@ringback/client/texts";
import { canDecide, type NeedsYouStatus, needsYouStatus, needsYouStatusText } from "@ringback/client/views";
import type { PermissionVerdict } from "@ringback/protocol";
import { useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { errorText } from "../shared/error-text.js";
import { useBusyAction } from "../shared/use-busy-action.js";
import { texts } from "../shared/use-texts.js";
import { useNowUntil } from "./use-now-until.js";

const PROBLEM_TEXT: Record<DecisionProblem, (t: NeedsYouTexts) => string> = {
  "not-needs-you": (t) => t.notInCall,
  "not-in-call": (t) => t.notInCall,
  "stopped-waiting": (t) => t.stoppedWaiting,
  "already-decided": (t) => t.alreadyDecided,
  "no-computer": (t) => t.noComputer,
};

/** A permission ask's decision as the call screen shows it: the ask's details above, its buttons or outcome below. */
export interface Decision {
  readonly t: NeedsYouTexts;
  readonly pt: ProblemTexts;
  readonly record: CallRecord;
  readonly lastWords: string | null | undefined;
  readonly status: NeedsYouStatus;
  /** Where the decision stands in one line; empty while the agent waits and nothing was sent. */
  readonly statusText: string;
  /** Allow and Deny can still work: the agent waits (or refused a decision, and another may be tried). */
  readonly canDecide: boolean;
  readonly isSending: boolean;
  readonly failureText: string | null;
  readonly reason: string;
  readonly setReason: (change: (typed: string) => string) => void;
  readonly decide: (verdict: PermissionVerdict) => void;
}

/** The decision of a permission ask in call; null for any other call. */
export function useDecision(
  controller: AppController,
  record: CallRecord,
  language: InterfaceLanguage,
): Decision | null {
  const t = texts(NEEDS_YOU_TEXTS, language);
  const ask = needsYouAsk(record);
  const now = useNowUntil(ask?.expiresAt ?? null);
  const [reason, setReason] = useState("");
  const { busy, failure, run } = useBusyAction<"sending">();
  const thisDeviceId = controller.view.pairing?.identity.deviceId ?? null;
  const status = needsYouStatus(record, thisDeviceId, now);
  if (!ask || !status) return null;
  const failureText = (error: unknown) =>
    error instanceof DecisionError
      ? PROBLEM_TEXT[error.problem](t)
      : t.sendFailed(errorText(error, language));
  return {
    t,
    pt: texts(PROBLEM_TEXTS, language),
    record,
    lastWords: ask.lastWords,
    status,
    statusText: needsYouStatusText(status, t),
    canDecide: canDecide(status),
    isSending: busy !== null,
    failureText: failure ? failureText(failure.error) : null,
    reason,
    setReason,
    decide: (verdict) => {
      run("sending", () =>
        controller.calls.decide(record.eventId, verdict, verdict === "deny" ? reason : null),
      ).catch(() => undefined);
    },
  };
}
