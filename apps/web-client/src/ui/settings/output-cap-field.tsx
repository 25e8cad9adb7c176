import type { ComputerTexts } from "@ringback/client/texts";
import type { ModelOutputCapField } from "@ringback/client/views";
import { MODEL_OUTPUT_TOKENS_MAX, MODEL_OUTPUT_TOKENS_MIN } from "@ringback/protocol";

/**
 * The output cap of every brief call: a number of tokens, or "use the default", which has no number to show (a
 * local model's cap is sized to each report, a hosted one has none), so the field shows the default's words.
 */
export function OutputCapField(props: {
  readonly field: ModelOutputCapField;
  readonly isLocal: boolean;
  readonly t: ComputerTexts;
  readonly onChange: (field: ModelOutputCapField) => void;
}) {
  const { field, isLocal, t, onChange } = props;
  return (
    <fieldset class="limit-field" data-testid="computer-model-output-cap">
      <label class="field">
        {t.outputCapLimit}
        <input
          type="text"
          inputMode="numeric"
          data-testid="computer-model-output-cap-tokens"
          disabled={field.useDefault}
          value={field.useDefault ? "" : field.tokens}
          placeholder={
            field.useDefault
              ? t.outputCapDefault(isLocal)
              : `${MODEL_OUTPUT_TOKENS_MIN}–${MODEL_OUTPUT_TOKENS_MAX}`
          }
          onInput={(event) => onChange({ useDefault: false, tokens: event.currentTarget.value })}
        />
      </label>
      <label class="check">
        <input
          type="checkbox"
          data-testid="computer-model-output-cap-default"
          checked={field.useDefault}
          onChange={(event) => onChange({ useDefault: event.currentTarget.checked, tokens: field.tokens })}
        />
        {t.useDefaultOutputCap(isLocal)}
      </label>
    </fieldset>
  );
}
