import type { InterfaceLanguage } from "@ringback/client/texts";
import { useEffect, useRef } from "preact/hooks";
import { errorText } from "../shared/error-text.js";
import type { WelcomeFormState } from "./use-welcome-form.js";
import type { WelcomeForm } from "./welcome-fields.js";

interface Props {
  readonly form: WelcomeForm;
  readonly state: WelcomeFormState;
  readonly language: InterfaceLanguage;
}

/** Why a form failed, said where the person is looking: next to that form, brought into view. */
export function WelcomeError({ form, state, language }: Props) {
  const line = useRef<HTMLParagraphElement>(null);
  const failure = state.failure?.kind === form ? state.failure : null;
  useEffect(() => {
    if (failure) line.current?.scrollIntoView({ block: "center" });
  }, [failure]);
  if (!failure) return null;
  return (
    <p class="error" role="alert" data-testid="welcome-error" ref={line}>
      {errorText(failure.error, language)}
    </p>
  );
}
