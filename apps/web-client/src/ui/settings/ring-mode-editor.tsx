import { type ModeDraft, modeProblems, type RingRule } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { SETTINGS_TEXTS } from "@ringback/client/texts";
import { useState } from "preact/hooks";
import { errorText } from "../shared/error-text.js";
import { useBusyAction } from "../shared/use-busy-action.js";
import { texts } from "../shared/use-texts.js";
import { TimeRangesFieldset, WeekdaysFieldset } from "./ring-mode-fields.js";

interface Props {
  readonly mode: ModeDraft;
  readonly language: InterfaceLanguage;
  readonly onSave: (mode: ModeDraft) => Promise<void>;
  readonly onCancel: () => void;
}

/**
 * Adds or edits a ring mode: name, time ranges (a range may cross midnight), weekdays, rule, on/off, and whether its
 * hours set the computers away.
 */
export function RingModeEditor({ mode, language, onSave, onCancel }: Props) {
  const t = texts(SETTINGS_TEXTS, language);
  const [draft, setDraft] = useState(mode);
  const { busy, failure, run } = useBusyAction<"saving">();
  const problems = modeProblems(draft);
  const save = (event: Event) => {
    event.preventDefault();
    if (problems.length > 0) return;
    run("saving", () => onSave(draft)).catch(() => undefined);
  };
  return (
    <form class="mode-editor" data-testid="mode-editor" onSubmit={save}>
      <label class="field">
        {t.modeName}
        <input
          data-testid="mode-name"
          placeholder={draft.preset === "work" ? t.modeWork : draft.preset === "sleep" ? t.modeSleep : ""}
          value={draft.name}
          onInput={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
        />
      </label>
      <label class="field">
        <select
          data-testid="mode-rule"
          value={draft.rule}
          onChange={(event) => setDraft({ ...draft, rule: event.currentTarget.value as RingRule })}
        >
          <option value="ring-only-in">{t.ruleOnlyIn}</option>
          <option value="do-not-ring-in">{t.ruleNotIn}</option>
        </select>
      </label>
      <TimeRangesFieldset draft={draft} t={t} onChange={setDraft} />
      <WeekdaysFieldset draft={draft} t={t} language={language} onChange={setDraft} />
      <label class="day">
        <input
          type="checkbox"
          data-testid="mode-on"
          checked={draft.on}
          onChange={(event) => setDraft({ ...draft, on: event.currentTarget.checked })}
        />
        {t.modeOn}
      </label>
      <label class="day">
        <input
          type="checkbox"
          data-testid="mode-away"
          checked={draft.away === true}
          onChange={(event) => setDraft({ ...draft, away: event.currentTarget.checked })}
        />
        {t.modeAway}
      </label>
      <p class="hint">{t.modeAwayHint}</p>
      {draft.away === true && draft.rule === "do-not-ring-in" && (
        <p class="notice" data-testid="mode-away-silent">
          {t.modeAwaySilent}
        </p>
      )}
      {problems.includes("no-days") && <p class="error">{t.problemNoDays}</p>}
      {problems.includes("bad-time") && <p class="error">{t.problemBadTime}</p>}
      {failure && <p class="error">{errorText(failure.error, language)}</p>}
      <div class="row">
        <button type="submit" data-testid="save-mode" disabled={busy !== null || problems.length > 0}>
          {busy === "saving" ? t.saving : t.save}
        </button>
        <button type="button" data-testid="cancel-mode" onClick={onCancel}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}
