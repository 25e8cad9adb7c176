import type { TrackerSettingsController, TrackerSettingsView } from "@ringback/client";
import type { ComputerTexts } from "@ringback/client/texts";
import { watchedWorkspaceRows, workspaceStateText } from "@ringback/client/views";

interface Props {
  readonly tracker: TrackerSettingsController;
  readonly view: TrackerSettingsView;
  readonly t: ComputerTexts;
  readonly onNewToken: () => void;
}

/** The saved tracker: its token's hint, the watched workspaces and whether each is connected, and what to change. */
export function WatchedWorkspaces({ tracker, view, t, onNewToken }: Props) {
  const settings = view.saved?.settings;
  if (!settings) return null;
  const isBusy = view.busy !== null;
  const remove = () => {
    if (confirm(t.removeTrackerConfirm)) tracker.remove().catch(() => undefined);
  };
  return (
    <>
      <p data-testid="tracker-token-hint">{t.savedToken(settings.tokenHint)}</p>
      <h3>{t.watchedWorkspaces}</h3>
      <ul class="device-list">
        {watchedWorkspaceRows(view.saved, view.names).map((row) => (
          <li key={row.id} data-testid="watched-workspace" data-state={row.state ?? "unknown"}>
            <span class="name">{row.name}</span>
            <span class={row.state === "connected" ? "online" : "offline"}>{workspaceStateText(row, t)}</span>
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
          <button type="button" data-testid="new-token" disabled={isBusy} onClick={onNewToken}>
            {t.newToken}
          </button>
          <button type="button" data-testid="remove-tracker" disabled={isBusy} onClick={remove}>
            {t.removeTracker}
          </button>
        </div>
      )}
    </>
  );
}
