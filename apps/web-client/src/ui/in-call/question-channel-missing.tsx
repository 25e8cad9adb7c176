import { CORE_TEXTS, IN_CALL_TEXTS } from "@ringback/client/texts";
import { useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { QuestionModelSettings } from "../settings/question-model-settings.js";
import { texts } from "../shared/use-texts.js";

/** No model to ask yet: says so, and opens the model's settings right here in the call. */
export function QuestionChannelMissing({
  controller,
  view,
}: {
  readonly controller: AppController;
  readonly view: AppView;
}) {
  const t = texts(CORE_TEXTS, view.interfaceLanguage);
  const it = texts(IN_CALL_TEXTS, view.interfaceLanguage);
  const [isSettingsOpen, setSettingsOpen] = useState(false);
  return (
    <>
      <p class="notice" data-testid="no-question-channel">
        {t.noQuestionChannel}{" "}
        <button
          type="button"
          class="link"
          data-testid="open-model-settings"
          onClick={() => setSettingsOpen(!isSettingsOpen)}
        >
          {isSettingsOpen ? it.closeModelSettings : it.openModelSettings}
        </button>
      </p>
      {isSettingsOpen && <QuestionModelSettings controller={controller} view={view} />}
    </>
  );
}
