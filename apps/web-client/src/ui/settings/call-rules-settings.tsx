import { type CallRecord, CallRulesController, ruleProjects, withProjectRing } from "@ringback/client";
import { CALL_RULES_TEXTS, COMPUTER_TEXTS, type InterfaceLanguage } from "@ringback/client/texts";
import { computerProblemText } from "@ringback/client/views";
import { type CallRules, GATHER_SECONDS_MAX, type ProjectRing } from "@ringback/protocol";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
  /** The calls this device knows: their projects are offered without typing. */
  readonly records: readonly CallRecord[];
}

const RINGS: readonly ProjectRing[] = ["ring", "round-up", "silent"];

/**
 * Settings › Calls from agents: the chosen computer's rules for finished calls. How long it gathers agents that
 * finish close together, a choice per project (the projects of the calls known here, or one typed), and the time of
 * the daily quiet summary. Saved together, as the computer keeps them.
 */
export function CallRulesSettings({ controller, language, records }: Props) {
  const t = texts(CALL_RULES_TEXTS, language);
  const computerTexts = texts(COMPUTER_TEXTS, language);
  const rulesController = useMemo(
    () => new CallRulesController(() => controller.daemon.client()),
    [controller],
  );
  const view = useObservable(rulesController);
  const [draft, setDraft] = useState<CallRules | null>(null);
  const [gather, setGather] = useState("");
  const [newProject, setNewProject] = useState("");
  const [added, setAdded] = useState<string[]>([]);
  useEffect(() => {
    rulesController.load().catch(() => undefined);
  }, [rulesController]);
  useEffect(() => {
    setDraft(view.rules);
    setGather(view.rules ? String(view.rules.gatherSeconds) : "");
  }, [view.rules]);

  if (!draft) {
    return (
      <section class="card call-rules-settings" data-testid="call-rules-settings">
        <h2>{t.callRules}</h2>
        {view.problem && (
          <p class="error" data-testid="call-rules-problem" data-kind={view.problem.kind}>
            {computerProblemText(view.problem, computerTexts)}
          </p>
        )}
      </section>
    );
  }
  const projects = [...new Set([...ruleProjects(records, draft), ...added])];
  const ringName = (ring: ProjectRing) =>
    ({ ring: t.projectRing, "round-up": t.projectRoundUp, silent: t.projectSilent })[ring];
  const addProject = () => {
    const name = newProject.trim();
    if (name !== "" && !projects.includes(name)) setAdded([...added, name]);
    setNewProject("");
  };
  const save = (event: Event) => {
    event.preventDefault();
    // The computer checks the rules (a whole 0 to 300): what it refuses is shown as its problem.
    void rulesController.save({ ...draft, gatherSeconds: Number(gather) });
  };

  return (
    <section class="card call-rules-settings" data-testid="call-rules-settings">
      <h2>{t.callRules}</h2>
      <p class="hint">{t.callRulesHint}</p>
      <form onSubmit={save} data-testid="call-rules-form">
        <label class="field">
          {t.gatherSeconds}
          <input
            type="number"
            inputMode="numeric"
            min={0}
            max={GATHER_SECONDS_MAX}
            data-testid="call-rules-gather"
            value={gather}
            onInput={(event) => setGather(event.currentTarget.value)}
          />
        </label>
        <h3>{t.projects}</h3>
        <p class="hint">{t.projectRingHint}</p>
        {projects.length === 0 && <p class="notice">{t.noProjects}</p>}
        <ul class="device-list" data-testid="call-rules-projects">
          {projects.map((project) => (
            <li key={project} data-project={project}>
              <label class="field">
                {project}
                <select
                  data-testid="call-rules-project-ring"
                  value={draft.projects[project] ?? "ring"}
                  onChange={(event) =>
                    setDraft(withProjectRing(draft, project, event.currentTarget.value as ProjectRing))
                  }
                >
                  {RINGS.map((ring) => (
                    <option key={ring} value={ring}>
                      {ringName(ring)}
                    </option>
                  ))}
                </select>
              </label>
            </li>
          ))}
        </ul>
        <label class="field">
          {t.newProject}
          <input
            type="text"
            autocomplete="off"
            data-testid="call-rules-new-project"
            value={newProject}
            onInput={(event) => setNewProject(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key !== "Enter") return;
              event.preventDefault();
              addProject();
            }}
          />
        </label>
        <button type="button" data-testid="call-rules-add-project" onClick={addProject}>
          {t.addProject}
        </button>
        <label class="field">
          {t.quietSummaryAt}
          <input
            type="time"
            data-testid="call-rules-quiet-summary"
            value={draft.quietSummaryAt ?? ""}
            onInput={(event) => setDraft({ ...draft, quietSummaryAt: event.currentTarget.value || null })}
          />
        </label>
        <button type="submit" data-testid="call-rules-save" disabled={view.busy !== null}>
          {t.saveRules}
        </button>
      </form>
      {view.problem && (
        <p class="error" data-testid="call-rules-problem" data-kind={view.problem.kind}>
          {computerProblemText(view.problem, computerTexts)}
        </p>
      )}
      {view.notice === "saved" && <p class="hint">{t.saved}</p>}
    </section>
  );
}
