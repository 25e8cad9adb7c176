import type { InterfaceLanguage } from "@ringback/client/texts";
import { COMPUTER_TEXTS } from "@ringback/client/texts";
import { computerProblemText } from "@ringback/client/views";
import { useMemo, useState } from "preact/hooks";
import { EncryptionController, keyCheckText } from "../../app/computer-settings/encryption-controller.js";
import type { AppController } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
}

/** Settings › Encryption: one phrase becomes this device's key; the key and its id are never shown. */
export function EncryptionSettings({ controller, language }: Props) {
  const t = texts(COMPUTER_TEXTS, language);
  const encryption = useMemo(() => new EncryptionController(controller.computerKey), [controller]);
  const view = useObservable(encryption);
  const [phrase, setPhrase] = useState("");

  const change = (event: Event) => {
    event.preventDefault();
    encryption
      .change(phrase)
      .then(() => {
        // The phrase is not kept once the key is derived from it.
        if (encryption.view.check !== null) setPhrase("");
      })
      .catch(() => undefined);
  };

  return (
    <form class="card encryption-settings" data-testid="encryption-settings" onSubmit={change}>
      <h2>{t.encryption}</h2>
      <p class="hint">{t.encryptionHint}</p>
      <label class="field">
        {t.encryptionPhrase}
        <input
          type="password"
          autocomplete="new-password"
          data-testid="encryption-phrase"
          value={phrase}
          onInput={(event) => setPhrase(event.currentTarget.value)}
        />
      </label>
      {view.problem && (
        <p class="error" data-testid="encryption-problem" data-kind={view.problem.kind}>
          {computerProblemText(view.problem, t)}
        </p>
      )}
      {view.check && (
        <p
          class={view.check === "matches" ? "hint" : "notice"}
          data-testid="key-check"
          data-check={view.check}
        >
          {keyCheckText(view.check, t)}
        </p>
      )}
      <div class="row">
        <button type="submit" data-testid="change-key" disabled={view.busy !== null}>
          {view.busy === "deriving" ? t.derivingKey : t.changeKey}
        </button>
        <button
          type="button"
          data-testid="check-key"
          disabled={view.busy !== null}
          onClick={() => encryption.check()}
        >
          {view.busy === "checking" ? t.checkingKey : t.checkKey}
        </button>
      </div>
    </form>
  );
}
