import type { ComputerTexts } from "@ringback/client/texts";
import type { ComputerModelForm } from "@ringback/client/views";
import type { LlmChannelPublic, StructuredOutput } from "@ringback/protocol";

interface Props {
  readonly form: ComputerModelForm;
  /** What the computer has saved: its key's hint is the key field's placeholder. */
  readonly channel: LlmChannelPublic | null;
  readonly t: ComputerTexts;
  readonly onChange: (form: ComputerModelForm) => void;
}

/** The channel the computer writes briefs with: address, model, write-only key, structured output. */
export function ModelChannelFields({ form, channel, t, onChange }: Props) {
  const field = (name: "baseUrl" | "model" | "apiKey") => (event: { currentTarget: HTMLInputElement }) =>
    onChange({ ...form, [name]: event.currentTarget.value });
  return (
    <>
      <label class="field">
        {t.baseUrl}
        <input
          data-testid="computer-model-base-url"
          placeholder="https://api.openai.com/v1"
          value={form.baseUrl}
          onInput={field("baseUrl")}
        />
      </label>
      <label class="field">
        {t.model}
        <input data-testid="computer-model-name" value={form.model} onInput={field("model")} />
      </label>
      <label class="field">
        {t.apiKey}
        <input
          type="password"
          autocomplete="off"
          data-testid="computer-model-key"
          placeholder={channel ? t.apiKeyKept(channel.keyHint) : ""}
          value={form.apiKey}
          onInput={field("apiKey")}
        />
      </label>
      <label class="field">
        {t.structuredOutput}
        <select
          data-testid="computer-model-structured-output"
          value={form.structuredOutput}
          onChange={(event) =>
            onChange({ ...form, structuredOutput: event.currentTarget.value as StructuredOutput })
          }
        >
          <option value="json_schema">{t.structuredJsonSchema}</option>
          <option value="json_object">{t.structuredJsonObject}</option>
        </select>
      </label>
    </>
  );
}
