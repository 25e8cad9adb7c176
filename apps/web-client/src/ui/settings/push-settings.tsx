import { PUSH_REPEAT_CHOICES_SECONDS } from "@ringback/client";
import { PUSH_TEXTS, type PushTexts } from "@ringback/client/texts";
import type { AppView } from "../../app/controller/app-controller.js";
import {
  type EnablePushStep,
  PUSH_SUBSCRIBE_TIME_LIMIT_MS,
  type PushSetting,
} from "../../app/push/push-subscriber.js";
import { errorText } from "../shared/error-text.js";
import { useBusyAction } from "../shared/use-busy-action.js";
import { texts } from "../shared/use-texts.js";
import { PushLogList } from "./push-log-list.js";
import { usePushSetting } from "./use-push-setting.js";
import { type TurnOnFailure, usePushTurnOn } from "./use-push-turn-on.js";

interface Props {
  readonly view: AppView;
}

const LIMIT_SECONDS = PUSH_SUBSCRIBE_TIME_LIMIT_MS / 1000;

function stepText(step: EnablePushStep, t: PushTexts): string {
  switch (step) {
    case "asking-permission":
      return t.stepAskingPermission;
    case "subscribing":
      return t.stepSubscribing(LIMIT_SECONDS);
    case "registering":
      return t.stepRegistering(LIMIT_SECONDS);
  }
}

/** What went wrong and what to do about it. */
function failureText(failure: TurnOnFailure, t: PushTexts, language: AppView["interfaceLanguage"]): string {
  if (failure.kind === "no-service-worker") return t.problemNoServiceWorker;
  if (failure.kind === "error") return errorText(failure.error, language);
  switch (failure.problem) {
    case "push-service-timeout":
      return t.problemPushServiceTimeout(LIMIT_SECONDS);
    case "push-service-refused":
      return t.problemPushServiceRefused(failure.detail ?? "");
    case "relay-timeout":
      return t.problemRelayTimeout(LIMIT_SECONDS);
  }
}

/** What the status line says: turning on, on, off, or why it cannot be on. */
function pushState(setting: PushSetting, step: EnablePushStep | null) {
  if (step !== null) return "turning-on";
  if (setting.permission === "unsupported" || setting.permission === "denied") return setting.permission;
  return setting.isSubscribed ? "on" : "off";
}

/**
 * Settings › Ring when the app is closed: Web Push on or off, and how often an unanswered call rings again. Turning
 * on shows each step while it runs (the browser's push service and the relay each within
 * `PUSH_SUBSCRIBE_TIME_LIMIT_MS`), and when it fails, why and what to do.
 */
export function PushSettings({ view }: Props) {
  const t = texts(PUSH_TEXTS, view.interfaceLanguage);
  const { failure, run, fail } = useBusyAction<"changing">();
  const { subscriber, setting, refresh } = usePushSetting(view, (caught) => fail("changing", caught));
  const { step, failure: turnOnFailure, turnOn, clearFailure } = usePushTurnOn(subscriber, refresh);
  if (!subscriber || !setting) return null;

  const change = (work: () => Promise<unknown>) => {
    clearFailure();
    run("changing", work).then(refresh, () => undefined);
  };
  const state = pushState(setting, step);
  const status = {
    "turning-on": t.turningOn,
    unsupported: t.unsupported,
    denied: t.denied,
    on: t.on,
    off: t.off,
  }[state];
  return (
    <section class="card push-settings" data-testid="push-settings">
      <h2>{t.title}</h2>
      <p class="hint">{t.hint}</p>
      <p data-testid="push-status" data-state={state}>
        {status}
      </p>
      {step !== null && (
        <p class="push-progress" role="status" data-testid="push-progress" data-step={step}>
          <span class="spinner" aria-hidden="true" />
          {stepText(step, t)}
        </p>
      )}
      {turnOnFailure && (
        <p
          class="error"
          role="alert"
          data-testid="push-problem"
          data-kind={turnOnFailure.kind === "problem" ? turnOnFailure.problem : turnOnFailure.kind}
        >
          {failureText(turnOnFailure, t, view.interfaceLanguage)}
        </p>
      )}
      {setting.permission !== "unsupported" && setting.permission !== "denied" && (
        <div class="row">
          {setting.isSubscribed ? (
            <button type="button" data-testid="push-off" onClick={() => change(() => subscriber.disable())}>
              {t.turnOff}
            </button>
          ) : (
            <button
              type="button"
              data-testid="push-on"
              disabled={step !== null}
              onClick={() => turnOn(setting.repeatSeconds).catch(() => undefined)}
            >
              {step !== null ? t.turningOn : t.turnOn}
            </button>
          )}
          <RepeatChoice
            t={t}
            repeatSeconds={setting.repeatSeconds}
            onChange={(seconds) => change(() => subscriber.setRepeat(seconds))}
          />
        </div>
      )}
      {failure && <p class="error">{errorText(failure.error, view.interfaceLanguage)}</p>}
      <PushLogList view={view} />
    </section>
  );
}

interface RepeatChoiceProps {
  readonly t: PushTexts;
  readonly repeatSeconds: number;
  readonly onChange: (seconds: number) => void;
}

/** How often an unanswered call rings again. */
function RepeatChoice({ t, repeatSeconds, onChange }: RepeatChoiceProps) {
  return (
    <label>
      {t.repeat}{" "}
      <select
        data-testid="push-repeat"
        value={String(repeatSeconds)}
        onChange={(event) => onChange(Number(event.currentTarget.value))}
      >
        {PUSH_REPEAT_CHOICES_SECONDS.map((seconds) => (
          <option key={seconds} value={String(seconds)}>
            {t.repeatEvery(seconds)}
          </option>
        ))}
      </select>
    </label>
  );
}
