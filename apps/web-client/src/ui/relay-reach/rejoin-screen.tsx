import { RELAY_REACH_TEXTS } from "@ringback/client/texts";
import { useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { CodeSpans } from "../shared/code-spans.js";
import { errorText } from "../shared/error-text.js";
import { texts } from "../shared/use-texts.js";
import { WelcomeScreen } from "../welcome/welcome-screen.js";
import "./relay-reach.css";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

/**
 * Joining again from the banner of a relay out of reach: asks for the new pairing link, then either opens it (the
 * web app at another address joins there) or shows the welcome page opened from it, the usual join. Back keeps the
 * pairing this device has.
 */
export function RejoinScreen({ controller, view }: Props) {
  const t = texts(RELAY_REACH_TEXTS, view.interfaceLanguage);
  const [link, setLink] = useState("");
  const [error, setError] = useState<string | null>(null);
  const back = (
    <button
      type="button"
      class="link rejoin-back"
      data-testid="rejoin-back"
      onClick={() => controller.cancelRejoin()}
    >
      {t.rejoinBack}
    </button>
  );
  const opened = view.rejoin?.link ?? null;
  if (opened !== null) {
    return (
      <>
        <div class="rejoin-back-row">{back}</div>
        <WelcomeScreen controller={controller} view={{ ...view, pairingLink: opened, notice: null }} />
      </>
    );
  }
  const open = (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      controller.openRejoinLink(link);
    } catch (caught) {
      setError(errorText(caught, view.interfaceLanguage));
    }
  };
  return (
    <main class="screen rejoin" data-testid="rejoin-screen">
      {back}
      <h1>{t.rejoinTitle}</h1>
      <p class="lead">
        <CodeSpans text={t.rejoinLead(view.pairing?.identity.serverUrl ?? "")} />
      </p>
      <form class="card" onSubmit={open}>
        <label class="field">
          {t.rejoinLinkLabel}
          <input
            data-testid="rejoin-link-input"
            placeholder="https://…/#pair=…&key=…"
            value={link}
            onInput={(event) => setLink(event.currentTarget.value)}
          />
        </label>
        <p class="hint">{t.rejoinOtherAddress}</p>
        <button type="submit" class="primary" data-testid="rejoin-open" disabled={link.trim() === ""}>
          {t.rejoinOpen}
        </button>
        {error && (
          <p class="error" role="alert" data-testid="rejoin-error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
