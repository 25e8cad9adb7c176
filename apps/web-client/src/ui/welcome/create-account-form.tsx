import type { WelcomeFormProps } from "./use-welcome-form.js";
import { WelcomeError } from "./welcome-error.js";

/** A new account on the relay: its claim code when the relay asks for one, and an optional encryption phrase. */
export function CreateAccountForm({ state, t, language }: WelcomeFormProps) {
  const { fields, setField, busy } = state;
  return (
    <form class="card" onSubmit={state.submit("create")}>
      <h2>{t.createAccountTitle}</h2>
      <p class="hint">{t.createAccountHint}</p>
      {state.setup?.claimRequired && (
        <label class="field">
          {t.claimCode}
          <input
            data-testid="claim-code"
            value={fields.claimCode}
            onInput={(event) => setField("claimCode", event.currentTarget.value)}
          />
        </label>
      )}
      <label class="field">
        {t.newAccountPhrase}
        <input
          type="password"
          data-testid="new-account-phrase"
          value={fields.newPhrase}
          onInput={(event) => setField("newPhrase", event.currentTarget.value)}
        />
      </label>
      <button type="submit" data-testid="create-account" disabled={busy !== null}>
        {busy === "create" ? t.creating : t.createAccount}
      </button>
      <WelcomeError form="create" state={state} language={language} />
    </form>
  );
}
