import type { ComputerTexts } from "@ringback/client/texts";
import { customLimit, type ModelLimitField } from "@ringback/client/views";

/**
 * One time limit: a number of seconds, or "use the default", which shows the default the typed address gets
 * (a local model's or a hosted one's). Leaving the default starts from its value.
 */
export function LimitField(props: {
  readonly name: "timeout" | "no-progress";
  readonly label: string;
  readonly field: ModelLimitField;
  readonly defaultSeconds: number;
  readonly isLocal: boolean;
  readonly t: ComputerTexts;
  readonly onChange: (field: ModelLimitField) => void;
}) {
  const { name, field, defaultSeconds, t, onChange } = props;
  return (
    <fieldset class="limit-field" data-testid={`computer-model-${name}`}>
      <label class="field">
        {props.label}
        <input
          type="text"
          inputMode="decimal"
          data-testid={`computer-model-${name}-seconds`}
          disabled={field.useDefault}
          value={field.useDefault ? String(defaultSeconds) : field.seconds}
          onInput={(event) => onChange({ useDefault: false, seconds: event.currentTarget.value })}
        />
      </label>
      <label class="check">
        <input
          type="checkbox"
          data-testid={`computer-model-${name}-default`}
          checked={field.useDefault}
          onChange={(event) =>
            onChange(
              event.currentTarget.checked
                ? { useDefault: true, seconds: field.seconds }
                : customLimit(defaultSeconds),
            )
          }
        />
        {t.useDefaultLimit(String(defaultSeconds), props.isLocal)}
      </label>
    </fieldset>
  );
}
