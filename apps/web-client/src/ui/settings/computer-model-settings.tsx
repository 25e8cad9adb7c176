import { ComputerModelController } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { COMPUTER_TEXTS, type ComputerTexts } from "@ringback/client/texts";
import {
  type ComputerModelForm,
  computerModelForm,
  computerProblemText,
  customLimit,
  type ModelLimitField,
  modelLimitDefaults,
  modelTimingLines,
  modelTimingView,
} from "@ringback/client/views";
import type { LlmTestTiming, StructuredOutput } from "@ringback/protocol";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
}

/**
 * One time limit: a number of seconds, or "use the default", which shows the default the typed address gets
 * (a local model's or a hosted one's). Leaving the default starts from its value.
 */
function LimitField(props: {
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

/** The connection test's timing: speeds, the limits used, a typical and a long report, and what to change. */
function TestTiming(props: {
  readonly timing: LlmTestTiming;
  readonly t: ComputerTexts;
  readonly onUseTimeout: (seconds: number) => void;
}) {
  const view = modelTimingView(props.timing);
  const lines = modelTimingLines(view, props.t);
  const advice = view.advice;
  return (
    <div class="test-timing" data-testid="computer-model-timing" data-advice={advice?.kind ?? "none"}>
      <p>{lines.speeds}</p>
      <p class="hint">{lines.limits}</p>
      <ul>
        {lines.reports.map((line, index) => (
          <li
            key={view.reports[index]?.report}
            data-testid="computer-model-report-time"
            data-fits={String(view.reports[index]?.fits)}
          >
            {line}
          </li>
        ))}
      </ul>
      {lines.advice && (
        <p class={advice ? "error" : "notice"} data-testid="computer-model-advice">
          {lines.advice}
        </p>
      )}
      {advice?.kind === "raise-timeout" && (
        <button
          type="button"
          data-testid="use-suggested-timeout"
          onClick={() => props.onUseTimeout(advice.suggestedSeconds)}
        >
          {props.t.useSuggestedTimeout(String(advice.suggestedSeconds))}
        </button>
      )}
    </div>
  );
}

/**
 * Settings › Language model for briefs: the chosen computer's channel (address, model, write-only key, structured
 * output, the two time limits), and a connection test of what is typed, made by the computer itself, with how long
 * a typical and a long report would take against the limit.
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
  const defaults = modelLimitDefaults(form.baseUrl);
  const isLocal = defaults.endpoint === "local";

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
      <h3>{t.limitsTitle}</h3>
      <p class="hint">{t.limitsHint}</p>
      <LimitField
        name="timeout"
        label={t.timeoutLimit}
        field={form.timeout}
        defaultSeconds={defaults.timeoutSeconds}
        isLocal={isLocal}
        t={t}
        onChange={(timeout) => setForm({ ...form, timeout })}
      />
      <LimitField
        name="no-progress"
        label={t.noProgressLimit}
        field={form.noProgress}
        defaultSeconds={defaults.noProgressSeconds}
        isLocal={isLocal}
        t={t}
        onChange={(noProgress) => setForm({ ...form, noProgress })}
      />
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
      {testResult?.ok && testResult.timing && (
        <TestTiming
          timing={testResult.timing}
          t={t}
          onUseTimeout={(seconds) => setForm({ ...form, timeout: customLimit(seconds) })}
        />
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
