import { TrackerSettingsController } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { COMPUTER_TEXTS } from "@ringback/client/texts";
import { computerProblemText, watchedWorkspaceRows, workspaceStateText } from "@ringback/client/views";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
}

/** Settings › Tracker: the chosen computer's Multica token (only its hint once saved) and watched workspaces. */
export function TrackerSettings({ controller, language }: Props) {
  const t = texts(COMPUTER_TEXTS, language);
  const tracker = useMemo(
    () =>
      new TrackerSettingsController({
        client: () => controller.daemon.client(),
        setWatchedWorkspaces: (ids) => controller.daemon.setWatchedWorkspaces(ids),
      }),
    [controller],
  );
  const view = useObservable(tracker);
  const [token, setToken] = useState("");
  const [isEnteringToken, setEnteringToken] = useState(false);
  useEffect(() => {
    tracker.load().catch(() => undefined);
  }, [tracker]);

  const settings = view.saved?.settings ?? null;
  const showsTokenForm =
    view.saved !== null && view.choice === null && (settings === null || isEnteringToken);
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
  const save = (event: Event) => {
    event.preventDefault();
    tracker
      .save()
      .then(() => {
        if (!tracker.view.choice) setEnteringToken(false);
      })
      .catch(() => undefined);
  };
  const remove = () => {
    if (confirm(t.removeTrackerConfirm)) tracker.remove().catch(() => undefined);
  };

  const state = view.saved === null ? "loading" : settings ? "saved" : "empty";
  return (
    <section class="card tracker-settings" data-testid="tracker-settings" data-state={state}>
      <h2>{t.tracker}</h2>
      <p class="hint">{t.trackerHint}</p>
      {view.saved === null && view.busy === "loading" && <p>{t.loading}</p>}
      {view.saved !== null && !settings && <p class="notice">{t.trackerNotSet}</p>}
      {settings && (
        <>
          <p data-testid="tracker-token-hint">{t.savedToken(settings.tokenHint)}</p>
          <h3>{t.watchedWorkspaces}</h3>
          <ul class="device-list">
            {watchedWorkspaceRows(view.saved, view.names).map((row) => (
              <li key={row.id} data-testid="watched-workspace" data-state={row.state ?? "unknown"}>
                <span class="name">{row.name}</span>
                <span class={row.state === "connected" ? "online" : "offline"}>
                  {workspaceStateText(row, t)}
                </span>
              </li>
            ))}
          </ul>
          {view.choice === null && (
            <div class="row">
              <button
                type="button"
                data-testid="change-workspaces"
                disabled={isBusy}
                onClick={() => tracker.changeWorkspaces()}
              >
                {t.changeWorkspaces}
              </button>
              <button
                type="button"
                data-testid="new-token"
                disabled={isBusy}
                onClick={() => setEnteringToken(true)}
              >
                {t.newToken}
              </button>
              <button type="button" data-testid="remove-tracker" disabled={isBusy} onClick={remove}>
                {t.removeTracker}
              </button>
            </div>
          )}
        </>
      )}
      {showsTokenForm && (
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
            {settings && (
              <button type="button" onClick={() => setEnteringToken(false)}>
                {t.cancel}
              </button>
            )}
          </div>
        </form>
      )}
      {view.choice && (
        <form data-testid="workspace-choice" onSubmit={save}>
          <h3>{t.chooseWorkspaces}</h3>
          {view.choice.workspaces.length === 0 && <p class="notice">{t.noWorkspacesAccessible}</p>}
          {view.choice.workspaces.map((workspace) => (
            <label key={workspace.id} class="choice">
              <input
                type="checkbox"
                data-testid="tracker-workspace"
                data-workspace-id={workspace.id}
                checked={view.choice?.selected.includes(workspace.id) ?? false}
                onChange={() => tracker.toggle(workspace.id)}
              />
              {workspace.name}
            </label>
          ))}
          <div class="row">
            <button type="submit" data-testid="save-tracker" disabled={isBusy}>
              {view.busy === "saving" ? t.saving : t.save}
            </button>
            <button
              type="button"
              data-testid="cancel-tracker"
              disabled={isBusy}
              onClick={() => tracker.cancel()}
            >
              {t.cancel}
            </button>
          </div>
        </form>
      )}
      {view.problem && (
        <p class="error" data-testid="tracker-problem" data-kind={view.problem.kind}>
          {computerProblemText(view.problem, t)}
        </p>
      )}
      {view.problem && view.saved === null && (
        <button type="button" onClick={() => tracker.load()}>
          {t.retry}
        </button>
      )}
      {view.notice && (
        <p class="hint" data-testid="tracker-notice">
          {view.notice === "saved" ? t.saved : t.removed}
        </p>
      )}
    </section>
  );
}
