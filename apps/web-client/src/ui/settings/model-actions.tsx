import type { ComputerModelView } from "@ringback/client";
import type { ComputerTexts } from "@ringback/client/texts";

interface Props {
  readonly view: ComputerModelView;
  readonly t: ComputerTexts;
  readonly onTest: () => void;
  readonly onRemove: () => void;
  readonly onRetry: () => void;
}

/** Save (the form's submit), test what is typed, remove the saved channel, or retry a load that failed. */
export function ModelActions({ view, t, onTest, onRemove, onRetry }: Props) {
  const isBusy = view.busy !== null;
  return (
    <div class="row">
      <button type="submit" data-testid="save-computer-model" disabled={isBusy}>
        {view.busy === "saving" ? t.saving : t.save}
      </button>
      <button
        type="button"
        data-testid="test-computer-model"
        title={t.testModelHint}
        disabled={isBusy}
        onClick={onTest}
      >
        {view.busy === "testing" ? t.testingModel : t.testModel}
      </button>
      {view.channel && (
        <button type="button" data-testid="remove-computer-model" disabled={isBusy} onClick={onRemove}>
          {t.removeModel}
        </button>
      )}
      {!view.isLoaded && view.problem && (
        <button type="button" onClick={onRetry}>
          {t.retry}
        </button>
      )}
    </div>
  );
}
