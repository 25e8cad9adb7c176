import type { RingMode } from "@ringback/client";
import { isWholeDay, type ModeDraft, newModeDraft, ringModeName } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { SETTINGS_TEXTS, type SettingsTexts } from "@ringback/client/texts";
import { daysSummary, weekdayName } from "@ringback/client/views";
import { useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";
import { RingModeEditor } from "./ring-mode-editor.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
}

function modeSummary(mode: RingMode, t: SettingsTexts, language: InterfaceLanguage): string {
  const days = daysSummary(mode.repeat);
  const dayText =
    days.kind === "every-day"
      ? t.everyDay
      : days.kind === "workdays"
        ? t.workdays
        : days.kind === "weekend"
          ? t.weekend
          : days.days.map((day) => weekdayName(day, language)).join(" ");
  const ranges = mode.ranges
    .map((range) => (isWholeDay(range) ? t.wholeDay : `${range.start}–${range.end}`))
    .join(", ");
  const rule = mode.rule === "ring-only-in" ? t.ruleShortOnlyIn : t.ruleShortNotIn;
  return `${dayText} · ${ranges} · ${rule}${mode.away ? ` · ${t.ruleShortAway}` : ""}`;
}

/** Settings › Ring modes: the modes, on/off, add, edit, delete; says which modes turning one on turned off. */
export function RingModesSettings({ controller, language }: Props) {
  const t = texts(SETTINGS_TEXTS, language);
  const { modes, turnedOff } = useObservable(controller.ringModes);
  const [editing, setEditing] = useState<ModeDraft | null>(null);
  const save = async (mode: ModeDraft) => {
    await controller.ringModes.save(mode);
    setEditing(null);
  };
  const remove = (mode: RingMode) => {
    if (!confirm(t.deleteModeConfirm(ringModeName(mode, t)))) return;
    controller.ringModes.remove(mode.id).catch(() => undefined);
  };
  return (
    <section class="card ring-modes-settings" data-testid="ring-modes-settings">
      <h2>{t.ringModes}</h2>
      <p class="hint">{t.ringModesHint}</p>
      {turnedOff.length > 0 && (
        <p class="notice" data-testid="modes-turned-off">
          {t.turnedOff(turnedOff.map((mode) => ringModeName(mode, t)).join(", "))}
        </p>
      )}
      <ul class="mode-list">
        {modes.map((mode) => (
          <li key={mode.id} data-testid="mode-row" data-mode-id={mode.id}>
            {editing?.id === mode.id ? (
              <RingModeEditor
                mode={editing}
                language={language}
                onSave={save}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <div class="row">
                <label class="mode-toggle">
                  <input
                    type="checkbox"
                    data-testid="mode-toggle"
                    checked={mode.on}
                    onChange={(event) =>
                      controller.ringModes.setOn(mode.id, event.currentTarget.checked).catch(() => undefined)
                    }
                  />
                  <strong>{ringModeName(mode, t)}</strong>
                </label>
                <span class="hint">{modeSummary(mode, t, language)}</span>
                <button type="button" data-testid="mode-edit" onClick={() => setEditing(mode)}>
                  {t.edit}
                </button>
                <button type="button" data-testid="mode-delete" onClick={() => remove(mode)}>
                  {t.delete}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {editing && !modes.some((mode) => mode.id === editing.id) ? (
        <RingModeEditor mode={editing} language={language} onSave={save} onCancel={() => setEditing(null)} />
      ) : (
        <button type="button" data-testid="add-mode" onClick={() => setEditing(newModeDraft())}>
          {t.addMode}
        </button>
      )}
    </section>
  );
}
