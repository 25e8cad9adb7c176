import { TrackerSettingsController } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { COMPUTER_TEXTS } from "@ringback/client/texts";
import { computerProblemText } from "@ringback/client/views";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";
import { TrackerTokenForm } from "./tracker-token-form.js";
import { WatchedWorkspaces } from "./watched-workspaces.js";
import { WorkspaceChoiceForm } from "./workspace-choice-form.js";

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
  const [isEnteringToken, setEnteringToken] = useState(false);
  useEffect(() => {
    tracker.load().catch(() => undefined);
  }, [tracker]);

  const settings = view.saved?.settings ?? null;
  const showsTokenForm =
    view.saved !== null && view.choice === null && (settings === null || isEnteringToken);

  const state = view.saved === null ? "loading" : settings ? "saved" : "empty";
  return (
    <section class="card tracker-settings" data-testid="tracker-settings" data-state={state}>
      <h2>{t.tracker}</h2>
      <p class="hint">{t.trackerHint}</p>
      {view.saved === null && view.busy === "loading" && <p>{t.loading}</p>}
      {view.saved !== null && !settings && <p class="notice">{t.trackerNotSet}</p>}
      {settings && (
        <WatchedWorkspaces tracker={tracker} view={view} t={t} onNewToken={() => setEnteringToken(true)} />
      )}
      {showsTokenForm && (
        <TrackerTokenForm
          tracker={tracker}
          view={view}
          t={t}
          canCancel={settings !== null}
          onCancel={() => setEnteringToken(false)}
        />
      )}
      {view.choice && (
        <WorkspaceChoiceForm tracker={tracker} view={view} t={t} onSaved={() => setEnteringToken(false)} />
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
