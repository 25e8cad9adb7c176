import type { WelcomeFormProps } from "./use-welcome-form.js";
import { WelcomeError } from "./welcome-error.js";

/** Join with the relay's address, a pairing code and the account's encryption phrase. */
export function CodeJoinForm({ state, t, language }: WelcomeFormProps) {
  const { fields, setField, busy } = state;
  return (
    <form class="card" data-testid="join-with-code-form" onSubmit={state.submit("code")}>
      <h2>{t.joinWithCodeTitle}</h2>
      <label class="field">
        {t.relayAddress}
        <input
          value={fields.serverUrl}
          onInput={(event) => setField("serverUrl", event.currentTarget.value)}
        />
      </label>
      <label class="field">
        {t.pairingCode}
        <input
          inputMode="numeric"
          autoComplete="one-time-code"
          data-testid="pairing-code"
          value={fields.code}
          onInput={(event) => setField("code", event.currentTarget.value)}
        />
      </label>
      <label class="field">
        {t.encryptionPhraseSame}
        <input
          type="password"
          data-testid="pairing-phrase"
          value={fields.phrase}
          onInput={(event) => setField("phrase", event.currentTarget.value)}
        />
      </label>
      <button type="submit" data-testid="join-with-code" disabled={busy !== null}>
        {busy === "code" ? t.derivingAndJoining : t.join}
      </button>
      <WelcomeError form="code" state={state} language={language} />
    </form>
  );
}
