import { listModels } from "@ringback/client";
import { SETTINGS_TEXTS } from "@ringback/client/texts";
import { channelForm, channelFromForm } from "@ringback/client/views";
import { useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { errorText } from "../shared/error-text.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

/** What the form last said, worded when shown so that it follows the interface language (a failure included). */
type FormMessage =
  | { readonly text: "saved" | "noModelsListed" | "modelIncomplete" }
  | { readonly failure: unknown };

/** Settings › Language model for questions: this device's own OpenAI-compatible channel (address, model, key). */
export function QuestionModelSettings({ controller, view }: Props) {
  const t = texts(SETTINGS_TEXTS, view.interfaceLanguage);
  const saved = view.questionChannel;
  const [form, setForm] = useState(() => channelForm(saved));
  const [models, setModels] = useState<string[] | null>(null);
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [isBusy, setBusy] = useState(false);
  const field =
    (name: keyof typeof form) => (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
      setForm({ ...form, [name]: event.currentTarget.value });

  const run = async (action: () => Promise<FormMessage | null>) => {
    setBusy(true);
    setMessage(null);
    try {
      setMessage(await action());
    } catch (caught) {
      setMessage({ failure: caught });
    } finally {
      setBusy(false);
    }
  };

  const save = (event: Event) => {
    event.preventDefault();
    const channel = channelFromForm(form, saved);
    if (!channel) {
      setMessage({ text: "modelIncomplete" });
      return;
    }
    run(async () => {
      await controller.preferences.saveQuestionChannel(channel);
      setForm({ ...form, apiKey: "" });
      return { text: "saved" };
    }).catch(() => undefined);
  };

  const list = () =>
    run(async () => {
      const ids = await listModels({
        baseUrl: form.baseUrl.trim(),
        apiKey: form.apiKey.trim() || (saved?.apiKey ?? ""),
      });
      setModels(ids);
      return ids.length === 0 ? { text: "noModelsListed" } : null;
    });

  return (
    <form class="card question-model-settings" data-testid="question-model-settings" onSubmit={save}>
      <h2>{t.questionModel}</h2>
      <p class="hint">{t.questionModelHint}</p>
      {!saved && <p class="notice">{t.modelNotSet}</p>}
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
          placeholder={saved ? t.apiKeyKept : ""}
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
      {message && (
        <p
          class={"failure" in message || message.text === "modelIncomplete" ? "error" : "hint"}
          data-testid="model-message"
        >
          {"failure" in message ? errorText(message.failure, view.interfaceLanguage) : t[message.text]}
        </p>
      )}
      <div class="row">
        <button
          type="button"
          data-testid="list-models"
          disabled={isBusy || form.baseUrl.trim() === ""}
          onClick={list}
        >
          {isBusy ? t.listingModels : t.listModels}
        </button>
        <button type="submit" data-testid="save-model" disabled={isBusy}>
          {t.save}
        </button>
        {saved && (
          <button
            type="button"
            data-testid="clear-model"
            onClick={() =>
              run(async () => {
                await controller.preferences.saveQuestionChannel(null);
                setForm(channelForm(null));
                return null;
              })
            }
          >
            {t.clearModel}
          </button>
        )}
      </div>
    </form>
  );
}
