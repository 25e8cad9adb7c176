import { listModels } from "@ringback/client";
import { SETTINGS_TEXTS, type SettingsTexts } from "@ringback/client/texts";
import { channelForm, channelFromForm, type QuestionChannelForm } from "@ringback/client/views";
import { useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { errorText } from "../shared/error-text.js";
import { useBusyAction } from "../shared/use-busy-action.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

/** What the form last said besides a failure, worded when shown so that it follows the interface language. */
type FormNote = "saved" | "noModelsListed" | "modelIncomplete";

type FieldInput = (
  name: keyof QuestionChannelForm,
) => (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) => void;

/** Settings › Language model for questions: this device's own OpenAI-compatible channel (address, model, key). */
export function QuestionModelSettings({ controller, view }: Props) {
  const t = texts(SETTINGS_TEXTS, view.interfaceLanguage);
  const saved = view.questionChannel;
  const [form, setForm] = useState(() => channelForm(saved));
  const [models, setModels] = useState<string[] | null>(null);
  const [note, setNote] = useState<FormNote | null>(null);
  const { busy, failure, run } = useBusyAction<"listing" | "saving" | "clearing">();
  const field: FieldInput = (name) => (event) => setForm({ ...form, [name]: event.currentTarget.value });
  const runNoting = (kind: "listing" | "saving" | "clearing", action: () => Promise<FormNote | null>) => {
    setNote(null);
    run(kind, async () => setNote(await action())).catch(() => undefined);
  };

  const save = (event: Event) => {
    event.preventDefault();
    const channel = channelFromForm(form, saved);
    if (!channel) {
      setNote("modelIncomplete");
      return;
    }
    runNoting("saving", async () => {
      await controller.preferences.saveQuestionChannel(channel);
      setForm({ ...form, apiKey: "" });
      return "saved";
    });
  };
  const list = () =>
    runNoting("listing", async () => {
      const ids = await listModels({
        baseUrl: form.baseUrl.trim(),
        apiKey: form.apiKey.trim() || (saved?.apiKey ?? ""),
      });
      setModels(ids);
      return ids.length === 0 ? "noModelsListed" : null;
    });
  const clear = () =>
    runNoting("clearing", async () => {
      await controller.preferences.saveQuestionChannel(null);
      setForm(channelForm(null));
      return null;
    });

  return (
    <form class="card question-model-settings" data-testid="question-model-settings" onSubmit={save}>
      <h2>{t.questionModel}</h2>
      <p class="hint">{t.questionModelHint}</p>
      {!saved && <p class="notice">{t.modelNotSet}</p>}
      <ChannelFields form={form} field={field} models={models} hasSavedKey={saved !== null} t={t} />
      {note ? (
        <p class={note === "modelIncomplete" ? "error" : "hint"} data-testid="model-message">
          {t[note]}
        </p>
      ) : (
        failure && (
          <p class="error" data-testid="model-message">
            {errorText(failure.error, view.interfaceLanguage)}
          </p>
        )
      )}
      <div class="row">
        <button
          type="button"
          data-testid="list-models"
          disabled={busy !== null || form.baseUrl.trim() === ""}
          onClick={list}
        >
          {busy === "listing" ? t.listingModels : t.listModels}
        </button>
        <button type="submit" data-testid="save-model" disabled={busy !== null}>
          {t.save}
        </button>
        {saved && (
          <button type="button" data-testid="clear-model" onClick={clear}>
            {t.clearModel}
          </button>
        )}
      </div>
    </form>
  );
}

interface ChannelFieldsProps {
  readonly form: QuestionChannelForm;
  readonly field: FieldInput;
  readonly models: readonly string[] | null;
  readonly hasSavedKey: boolean;
  readonly t: SettingsTexts;
}

/** The channel's address, key and model, with the models the address listed to pick from. */
function ChannelFields({ form, field, models, hasSavedKey, t }: ChannelFieldsProps) {
  return (
    <>
      <label class="field">
        {t.baseUrl}
        <input
          data-testid="model-base-url"
          placeholder="https://api.openai.com/v1"
          value={form.baseUrl}
          onInput={field("baseUrl")}
        />
      </label>
      <label class="field">
        {t.apiKey}
        <input
          type="password"
          data-testid="model-api-key"
          placeholder={hasSavedKey ? t.apiKeyKept : ""}
          value={form.apiKey}
          onInput={field("apiKey")}
        />
      </label>
      <label class="field">
        {t.model}
        <input data-testid="model-name" list="question-models" value={form.model} onInput={field("model")} />
        <datalist id="question-models">
          {(models ?? []).map((id) => (
            <option key={id} value={id} />
          ))}
        </datalist>
      </label>
      {models && models.length > 0 && (
        <select data-testid="model-list" value={form.model} onChange={field("model")}>
          <option value="">—</option>
          {models.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      )}
    </>
  );
}
