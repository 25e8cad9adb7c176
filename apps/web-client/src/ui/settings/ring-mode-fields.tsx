import {
  addRange,
  crossesMidnight,
  isWholeDay,
  type ModeDraft,
  removeRange,
  setRange,
  toggleDay,
} from "@ringback/client";
import type { InterfaceLanguage, SettingsTexts } from "@ringback/client/texts";
import { MONDAY_FIRST, weekdayName } from "@ringback/client/views";

interface FieldsetProps {
  readonly draft: ModeDraft;
  readonly t: SettingsTexts;
  readonly onChange: (draft: ModeDraft) => void;
}

/** A mode's time ranges: from and to (a range may cross midnight or take the whole day), add and remove. */
export function TimeRangesFieldset({ draft, t, onChange }: FieldsetProps) {
  return (
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
                onChange(setRange(draft, index, { ...range, start: event.currentTarget.value }))
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
                onChange(setRange(draft, index, { ...range, end: event.currentTarget.value }))
              }
            />
          </label>
          {isWholeDay(range) ? (
            <span class="hint">({t.wholeDay})</span>
          ) : (
            crossesMidnight(range) && <span class="hint">{t.nextDay}</span>
          )}
          {draft.ranges.length > 1 && (
            <button type="button" onClick={() => onChange(removeRange(draft, index))}>
              {t.removeRange}
            </button>
          )}
        </div>
      ))}
      <button type="button" data-testid="add-range" onClick={() => onChange(addRange(draft))}>
        {t.addRange}
      </button>
    </fieldset>
  );
}

/** The weekdays a mode repeats on, Monday first. */
export function WeekdaysFieldset({
  draft,
  t,
  language,
  onChange,
}: FieldsetProps & { language: InterfaceLanguage }) {
  return (
    <fieldset class="days">
      <legend>{t.repeat}</legend>
      {MONDAY_FIRST.map((day) => (
        <label key={day} class="day">
          <input
            type="checkbox"
            data-testid={`mode-day-${day}`}
            checked={draft.repeat.includes(day)}
            onChange={() => onChange(toggleDay(draft, day))}
          />
          {weekdayName(day, language)}
        </label>
      ))}
    </fieldset>
  );
}
