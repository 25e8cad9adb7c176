import { type ComputerProblem, computerProblemOf } from "@ringback/client";
import { COMPUTER_TEXTS, CORE_TEXTS } from "@ringback/client/texts";
import { computerChoiceView, computerProblemText } from "@ringback/client/views";
import { useCallback, useEffect, useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";
import { CallRulesSettings } from "./call-rules-settings.js";
import { ComputerModelSettings } from "./computer-model-settings.js";
import { ComputerRow } from "./computer-row.js";
import { EncryptionSettings } from "./encryption-settings.js";
import { EscalationSettings } from "./escalation-settings.js";
import { TrackerSettings } from "./tracker-settings.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

/**
 * Settings › Your computer: which of the account's computers this device talks to (or how to add one), then that
 * computer's tracker, language model, escalation and rules for calls from agents, and the encryption key this device
 * shares with it.
 */
export function ComputerSettings({ controller, view }: Props) {
  const t = texts(COMPUTER_TEXTS, view.interfaceLanguage);
  const core = texts(CORE_TEXTS, view.interfaceLanguage);
  const access = useObservable(controller.daemon);
  const [problem, setProblem] = useState<ComputerProblem | null>(null);

  const refresh = useCallback(() => {
    setProblem(null);
    controller.daemon.refreshComputers().catch((caught: unknown) => setProblem(computerProblemOf(caught)));
  }, [controller]);
  useEffect(refresh, [refresh]);

  // The tracker and model sections below are keyed by the computer: they read the new one's settings afresh.
  const choose = (computerId: string) => {
    controller.daemon.chooseComputer(computerId).catch(() => undefined);
  };

  const choice = computerChoiceView(access);
  return (
    <>
      <section class="card computer-settings" data-testid="computer-settings" data-state={choice.state}>
        <h2>{t.computer}</h2>
        <p class="hint">{t.computerHint}</p>
        {problem && (
          <p class="error" data-testid="computer-problem" data-kind={problem.kind}>
            {computerProblemText(problem, t)}
          </p>
        )}
        {choice.state === "loading" && !problem && <p>{t.loading}</p>}
        {choice.state === "none" && (
          <div data-testid="no-computer">
            <p class="notice">{t.noComputer}</p>
            <pre>
              <code>{t.noComputerCommand}</code>
            </pre>
          </div>
        )}
        {choice.state === "listed" && (
          <ul class="device-list">
            {choice.computers.map((computer) => (
              <ComputerRow
                key={computer.id}
                computer={computer}
                canChoose={choice.canChoose}
                t={t}
                core={core}
                onChoose={choose}
              />
            ))}
          </ul>
        )}
        <button type="button" data-testid="refresh-computers" onClick={refresh}>
          {t.refreshComputers}
        </button>
      </section>
      {access.computerId !== null && choice.state === "listed" && (
        <>
          <TrackerSettings
            key={`tracker-${access.computerId}`}
            controller={controller}
            language={view.interfaceLanguage}
          />
          <ComputerModelSettings
            key={`model-${access.computerId}`}
            controller={controller}
            language={view.interfaceLanguage}
          />
          <EscalationSettings
            key={`escalation-${access.computerId}`}
            controller={controller}
            language={view.interfaceLanguage}
          />
          <CallRulesSettings
            key={`call-rules-${access.computerId}`}
            controller={controller}
            language={view.interfaceLanguage}
            records={Object.values(view.calls.records)}
          />
        </>
      )}
      <EncryptionSettings controller={controller} language={view.interfaceLanguage} />
    </>
  );
}
