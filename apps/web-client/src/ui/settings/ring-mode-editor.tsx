import type { RingRule } from "@ringback/client";
import {
  addRange,
  crossesMidnight,
  isWholeDay,
  type ModeDraft,
  modeProblems,
  removeRange,
  setRange,
  toggleDay,
} from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { SETTINGS_TEXTS } from "@ringback/client/texts";
import { MONDAY_FIRST, weekdayName } from "@ringback/client/views";
import { useState } from "preact/hooks";
import { texts } from "../shared/use-texts.js";

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
  const [isSaving, setSaving] = useState(false);
  const problems = modeProblems(draft);
  const save = async (event: Event) => {
    event.preventDefault();
    if (problems.length > 0) return;
    setSaving(true);
    try {
      await onSave(draft);
    } finally {
      setSaving(false);
    }
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
      <fieldset class="ranges">
        <legend>{t.timeRanges}</legend>
        {draft.ranges.map((range, index) => (
          <div class="row range" key={index}>
            <label>
              {t.from}{" "}
              <input
                type="time"
                data-testid={`range-start-${index}`}
                value={range.start}
                onInput={(event) =>
                  setDraft(setRange(draft, index, { ...range, start: event.currentTarget.value }))
                }
              />
            </label>
            <label>
              {t.to}{" "}
              <input
                type="time"
                data-testid={`range-end-${index}`}
                value={range.end === "24:00" ? "00:00" : range.end}
                onInput={(event) =>
                  setDraft(setRange(draft, index, { ...range, end: event.currentTarget.value }))
                }
              />
            </label>
            {isWholeDay(range) ? (
              <span class="hint">({t.wholeDay})</span>
            ) : (
              crossesMidnight(range) && <span class="hint">{t.nextDay}</span>
            )}
            {draft.ranges.length > 1 && (
              <button type="button" onClick={() => setDraft(removeRange(draft, index))}>
                {t.removeRange}
              </button>
            )}
          </div>
        ))}
        <button type="button" data-testid="add-range" onClick={() => setDraft(addRange(draft))}>
          {t.addRange}
        </button>
      </fieldset>
      <fieldset class="days">
        <legend>{t.repeat}</legend>
        {MONDAY_FIRST.map((day) => (
          <label key={day} class="day">
            <input
              type="checkbox"
              data-testid={`mode-day-${day}`}
              checked={draft.repeat.includes(day)}
              onChange={() => setDraft(toggleDay(draft, day))}
            />
            {weekdayName(day, language)}
          </label>
        ))}
      </fieldset>
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
      <div class="row">
        <button type="submit" data-testid="save-mode" disabled={isSaving || problems.length > 0}>
          {isSaving ? t.saving : t.save}
        </button>
        <button type="button" data-testid="cancel-mode" onClick={onCancel}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}
