import type { TrackerSettingsController, TrackerSettingsView } from "@ringback/client";
import type { ComputerTexts } from "@ringback/client/texts";
import { useState } from "preact/hooks";

interface Props {
  readonly tracker: TrackerSettingsController;
  readonly view: TrackerSettingsView;
  readonly t: ComputerTexts;
  readonly canCancel: boolean;
  readonly onCancel: () => void;
}

/** The Multica token, checked by the computer before its workspaces are offered. */
export function TrackerTokenForm({ tracker, view, t, canCancel, onCancel }: Props) {
  const [token, setToken] = useState("");
  const isBusy = view.busy !== null;
  const validate = (event: Event) => {
    event.preventDefault();
    tracker
      .validate(token)
      .then(() => {
        if (tracker.view.choice) setToken("");
      })
      .catch(() => undefined);
  };
  return (
    <form onSubmit={validate}>
      <label class="field">
        {t.trackerToken}
        <input
          type="password"
          autocomplete="off"
          data-testid="tracker-token"
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
      </label>
      <p class="hint">{t.trackerTokenHint}</p>
      <div class="row">
        <button type="submit" data-testid="validate-token" disabled={isBusy}>
          {view.busy === "validating" ? t.validating : t.validateToken}
        </button>
        {canCancel && (
          <button type="button" onClick={onCancel}>
            {t.cancel}
          </button>
        )}
      </div>
    </form>
  );
}
