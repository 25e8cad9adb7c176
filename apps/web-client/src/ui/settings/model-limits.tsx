import type { ComputerTexts } from "@ringback/client/texts";
import { type ComputerModelForm, modelLimitDefaults } from "@ringback/client/views";
import { LimitField } from "./model-limit-field.js";
import { OutputCapField } from "./output-cap-field.js";

interface Props {
  readonly form: ComputerModelForm;
  readonly t: ComputerTexts;
  readonly onChange: (form: ComputerModelForm) => void;
}

/**
 * The two time limits and the output cap of a brief, with the defaults the typed address gets (a local model's or
 * a hosted one's).
 */
export function ModelLimits({ form, t, onChange }: Props) {
  const defaults = modelLimitDefaults(form.baseUrl);
  const isLocal = defaults.endpoint === "local";
  return (
    <>
      <h3>{t.limitsTitle}</h3>
      <p class="hint">{t.limitsHint}</p>
      <LimitField
        name="timeout"
        label={t.timeoutLimit}
        field={form.timeout}
        defaultSeconds={defaults.timeoutSeconds}
        isLocal={isLocal}
        t={t}
        onChange={(timeout) => onChange({ ...form, timeout })}
      />
      <LimitField
        name="no-progress"
        label={t.noProgressLimit}
        field={form.noProgress}
        defaultSeconds={defaults.noProgressSeconds}
        isLocal={isLocal}
        t={t}
        onChange={(noProgress) => onChange({ ...form, noProgress })}
      />
      <OutputCapField
        field={form.outputCap}
        isLocal={isLocal}
        t={t}
        onChange={(outputCap) => onChange({ ...form, outputCap })}
      />
    </>
  );
}
