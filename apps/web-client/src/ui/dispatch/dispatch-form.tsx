import type { DispatchController, DispatchView } from "@ringback/client";
import type { DISPATCH_TEXTS } from "@ringback/client/texts";
import { DISPATCH_WORDS_MAX } from "@ringback/protocol";
import { blockerText } from "./blocker-text.js";
import { ImageAttachments, imageFilesOf } from "./image-attachments.js";
import { IssuePicker } from "./issue-picker.js";

type DispatchTexts = (typeof DISPATCH_TEXTS)["en"];

/** The draft: where it goes (workspace, project, agent or issue), the words and images, and the button. */
export function DispatchForm(props: {
  controller: DispatchController;
  view: DispatchView;
  t: DispatchTexts;
}) {
  const { controller, view, t } = props;
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
      {view.workspaces.length > 1 && (
        <label class="field">
          {t.workspace}
          <select
            data-testid="dispatch-workspace"
            value={view.workspaceId ?? view.workspaces[0]?.id}
            onChange={(event) => controller.chooseWorkspace(event.currentTarget.value).catch(() => undefined)}
          >
            {view.workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <label class="field">
        {t.project}
        <select
          data-testid="dispatch-project"
          value={view.projectId ?? ""}
          disabled={view.projects.length === 0}
          onChange={(event) => controller.chooseProject(event.currentTarget.value)}
        >
          {view.projects.length === 0 && <option value="">{t.noProjects}</option>}
          {view.projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </label>
      <div class="tabs" role="tablist">
        <ModeTab controller={controller} view={view} mode="issue" label={t.modeIssue} />
        <ModeTab controller={controller} view={view} mode="comment" label={t.modeComment} />
      </div>
      {view.mode === "issue" ? (
        <label class="field">
          {t.agent}
          <select
            data-testid="dispatch-agent"
            value={view.agentId ?? ""}
            disabled={view.agents.length === 0}
            onChange={(event) => controller.chooseAgent(event.currentTarget.value)}
          >
            {view.agents.length === 0 && <option value="">{t.noAgents}</option>}
            {view.agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.online ? agent.name : `${agent.name} (${t.agentOffline})`}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <IssuePicker controller={controller} view={view} t={t} />
      )}
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
        <p class="error" data-testid="dispatch-problem">
          {view.problem.message}
        </p>
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
          {blockerText(t, view.blocker, view.availabilityMessage)}
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

function ModeTab(props: {
  controller: DispatchController;
  view: DispatchView;
  mode: DispatchView["mode"];
  label: string;
}) {
  return (
    <button
      type="button"
      role="tab"
      data-testid={`dispatch-mode-${props.mode}`}
      aria-selected={props.view.mode === props.mode}
      onClick={() => props.controller.setMode(props.mode)}
    >
      {props.label}
    </button>
  );
}
