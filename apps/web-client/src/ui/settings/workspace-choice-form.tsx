import type { TrackerSettingsController, TrackerSettingsView } from "@ringback/client";
import type { ComputerTexts } from "@ringback/client/texts";

interface Props {
  readonly tracker: TrackerSettingsController;
  readonly view: TrackerSettingsView;
  readonly t: ComputerTexts;
  readonly onSaved: () => void;
}

/** The workspaces the token reaches, to choose which the computer watches. */
export function WorkspaceChoiceForm({ tracker, view, t, onSaved }: Props) {
  const choice = view.choice;
  const isBusy = view.busy !== null;
  const save = (event: Event) => {
    event.preventDefault();
    tracker
      .save()
      .then(() => {
        if (!tracker.view.choice) onSaved();
      })
      .catch(() => undefined);
  };
  if (!choice) return null;
  return (
    <form data-testid="workspace-choice" onSubmit={save}>
      <h3>{t.chooseWorkspaces}</h3>
      {choice.workspaces.length === 0 && <p class="notice">{t.noWorkspacesAccessible}</p>}
      {choice.workspaces.map((workspace) => (
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
        <button type="button" data-testid="cancel-tracker" disabled={isBusy} onClick={() => tracker.cancel()}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}
