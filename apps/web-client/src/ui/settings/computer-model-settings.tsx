import { ComputerModelController } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { COMPUTER_TEXTS } from "@ringback/client/texts";
import {
  type ComputerModelForm,
  computerModelForm,
  computerProblemText,
  customLimit,
} from "@ringback/client/views";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";
import { ModelActions } from "./model-actions.js";
import { ModelChannelFields } from "./model-channel-fields.js";
import { ModelLimits } from "./model-limits.js";
import { ModelTestResult } from "./model-test-result.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
}

/**
 * Settings › Language model for briefs: the chosen computer's channel (address, model, write-only key, structured
 * output, the two time limits, the output cap), and a connection test of what is typed, made by the computer
 * itself, with how long a typical and a long report would take against the limit.
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
      <ModelChannelFields form={form} channel={channel} t={t} onChange={setForm} />
      <ModelLimits form={form} t={t} onChange={setForm} />
      {view.problem && (
        <p class="error" data-testid="computer-model-problem" data-kind={view.problem.kind}>
          {computerProblemText(view.problem, t)}
        </p>
      )}
      {testResult && (
        <ModelTestResult
          result={testResult}
          t={t}
          onUseTimeout={(seconds) => setForm({ ...form, timeout: customLimit(seconds) })}
        />
      )}
      {view.notice && (
        <p class="hint" data-testid="computer-model-notice">
          {view.notice === "saved" ? t.saved : t.removed}
        </p>
      )}
      <ModelActions view={view} t={t} onTest={test} onRemove={remove} onRetry={() => model.load()} />
    </form>
  );
}
