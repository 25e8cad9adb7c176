import type { DispatchController, DispatchView } from "@ringback/client";
import type { DISPATCH_TEXTS, InterfaceLanguage } from "@ringback/client/texts";
import { DISPATCH_WORDS_MAX } from "@ringback/protocol";
import { blockerText } from "./blocker-text.js";
import { DispatchTarget } from "./dispatch-target.js";
import { ImageAttachments, imageFilesOf } from "./image-attachments.js";
import { RequestProblem } from "./problem-note.js";
import { problemText } from "./problem-text.js";

type DispatchTexts = (typeof DISPATCH_TEXTS)["en"];

/** The draft: where it goes (workspace, project, agent or issue), the words and images, and the button. */
export function DispatchForm(props: {
  controller: DispatchController;
  view: DispatchView;
  t: DispatchTexts;
  language: InterfaceLanguage;
}) {
  const { controller, view, t, language } = props;
  const isSending = view.stage === "sending";
  const takeImages = (data: DataTransfer | null, event: Event) => {
    const files = imageFilesOf(data);
    if (files.length === 0) return;
    event.preventDefault();
    controller.addImages(files).catch(() => undefined);
  };
  return (
    <form
      class="dispatch-form card"
      data-testid="dispatch-form"
      onSubmit={(event) => {
        event.preventDefault();
        controller.send().catch(() => undefined);
      }}
      onPaste={(event) => takeImages(event.clipboardData, event)}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => takeImages(event.dataTransfer, event)}
    >
      <DispatchTarget controller={controller} view={view} t={t} language={language} />
      <label class="field">
        {t.words}
        <textarea
          data-testid="dispatch-words"
          rows={6}
          value={view.words}
          onInput={(event) => controller.setWords(event.currentTarget.value)}
        />
        <span class={view.words.length > DISPATCH_WORDS_MAX ? "error" : "hint"} data-testid="words-count">
          {t.wordsCount(view.words.length, DISPATCH_WORDS_MAX)}
        </span>
      </label>
      <ImageAttachments controller={controller} images={view.images} t={t} />
      {view.problem && (
        <RequestProblem problem={view.problem} language={language} testId="dispatch-problem" t={t} />
      )}
      <button
        type="submit"
        class="send-dispatch"
        data-testid="dispatch-button"
        aria-describedby={view.blocker === null ? undefined : "dispatch-blocker"}
        disabled={view.blocker !== null || isSending}
      >
        {isSending && view.progress ? t.sending(view.progress.uploaded, view.progress.total) : t.send}
      </button>
      {view.blocker !== null && !isSending && (
        <p class="hint" id="dispatch-blocker" data-testid="dispatch-blocker" data-blocker={view.blocker}>
          {blockerText(t, view.blocker)}
          {view.availabilityProblem && view.blocker === "unavailable" && (
            <> {problemText(view.availabilityProblem, language)}</>
          )}
          {view.availability !== "ready" && view.availability !== "checking" && (
            <button type="button" data-testid="dispatch-retry" onClick={() => controller.refresh()}>
              {t.retry}
            </button>
          )}
        </p>
      )}
    </form>
  );
}
