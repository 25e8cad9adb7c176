import type { DispatchController, DispatchView } from "@ringback/client";
import type { DISPATCH_TEXTS, InterfaceLanguage } from "@ringback/client/texts";
import { IssuePicker } from "./issue-picker.js";

type DispatchTexts = (typeof DISPATCH_TEXTS)["en"];

interface Props {
  readonly controller: DispatchController;
  readonly view: DispatchView;
  readonly t: DispatchTexts;
  readonly language: InterfaceLanguage;
}

/** Where the work goes: the workspace (when there are several), the project, and a new issue's agent or an issue. */
export function DispatchTarget({ controller, view, t, language }: Props) {
  return (
    <>
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
        <IssuePicker controller={controller} view={view} t={t} language={language} />
      )}
    </>
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
