import { ComputerModelController } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { COMPUTER_TEXTS } from "@ringback/client/texts";
import { type ComputerModelForm, computerModelForm, computerProblemText } from "@ringback/client/views";
import type { StructuredOutput } from "@ringback/protocol";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
}

/**
 * Settings › Language model for briefs: the chosen computer's channel (address, model, write-only key, structured
 * output), and a connection test of what is typed, made by the computer itself.
 */
export function ComputerModelSettings({ controller, language }: Props) {
  const t = texts(COMPUTER_TEXTS, language);
  const model = useMemo(() => new ComputerModelController(() => controller.daemon.client()), [controller]);
  const view = useObservable(model);
  const [form, setForm] = useState<ComputerModelForm>(() => computerModelForm(null));
  useEffect(() => {
    model.load().catch(() => undefined);
  }, [model]);
  // The form follows what the computer says it has (after loading, saving or removing); the key stays empty.
  useEffect(() => setForm(computerModelForm(view.channel)), [view.channel]);

  const field = (name: "baseUrl" | "model" | "apiKey") => (event: { currentTarget: HTMLInputElement }) =>
    setForm({ ...form, [name]: event.currentTarget.value });
  const save = (event: Event) => {
    event.preventDefault();
    model.save(form).catch(() => undefined);
  };
  const test = () => {
    model.test(form).catch(() => undefined);
  };
  const remove = () => {
    if (confirm(t.removeModelConfirm)) model.remove().catch(() => undefined);
  };
  const channel = view.channel;
  const isBusy = view.busy !== null;
  const testResult = view.testResult;

  return (
    <form
      class="card computer-model-settings"
      data-testid="computer-model-settings"
      data-state={view.isLoaded ? (channel ? "saved" : "empty") : "loading"}
      onSubmit={save}
    >
      <h2>{t.computerModel}</h2>
      <p class="hint">{t.computerModelHint}</p>
      {view.isLoaded && !channel && <p class="notice">{t.computerModelNotSet}</p>}
      {channel && <p data-testid="computer-model-saved">{t.savedModel(channel.model, channel.keyHint)}</p>}
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
            setForm({ ...form, structuredOutput: event.currentTarget.value as StructuredOutput })
          }
        >
          <option value="json_schema">{t.structuredJsonSchema}</option>
          <option value="json_object">{t.structuredJsonObject}</option>
        </select>
      </label>
      {view.problem && (
        <p class="error" data-testid="computer-model-problem" data-kind={view.problem.kind}>
          {computerProblemText(view.problem, t)}
        </p>
      )}
      {testResult && (
        <p
          class={testResult.ok ? "notice" : "error"}
          data-testid="computer-model-test-result"
          data-ok={String(testResult.ok)}
        >
          {testResult.ok
            ? t.modelWorks(testResult.model, testResult.latencyMs)
            : t.modelFails(testResult.error.message)}
        </p>
      )}
      {view.notice && (
        <p class="hint" data-testid="computer-model-notice">
          {view.notice === "saved" ? t.saved : t.removed}
        </p>
      )}
      <div class="row">
        <button type="submit" data-testid="save-computer-model" disabled={isBusy}>
          {view.busy === "saving" ? t.saving : t.save}
        </button>
        <button
          type="button"
          data-testid="test-computer-model"
          title={t.testModelHint}
          disabled={isBusy}
          onClick={test}
        >
          {view.busy === "testing" ? t.testingModel : t.testModel}
        </button>
        {channel && (
          <button type="button" data-testid="remove-computer-model" disabled={isBusy} onClick={remove}>
            {t.removeModel}
          </button>
        )}
        {!view.isLoaded && view.problem && (
          <button type="button" onClick={() => model.load()}>
            {t.retry}
          </button>
        )}
      </div>
    </form>
  );
}
