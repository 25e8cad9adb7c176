import { DeviceNameField } from "./device-name-field.js";
import type { WelcomeFormProps } from "./use-welcome-form.js";
import { WelcomeError } from "./welcome-error.js";
import { relayOfLink } from "./welcome-fields.js";

/** Opened from a pairing link: that link's account first (the relay it names, the device's name, Join). */
export function LinkJoinCard({ state, t, language }: WelcomeFormProps) {
  const relay = relayOfLink(state.fields.link);
  return (
    <form class="card link-join" data-testid="link-join" onSubmit={state.submit("link")}>
      <h2>{t.joinThisAccountTitle}</h2>
      {relay && <p class="hint">{t.joinThisAccountHint(relay)}</p>}
      <DeviceNameField state={state} t={t} />
      <button type="submit" class="primary" data-testid="join-with-link" disabled={state.busy !== null}>
        {state.busy === "link" ? t.joining : t.join}
      </button>
      <WelcomeError form="link" state={state} language={language} />
    </form>
  );
}
