import { PUSH_REPEAT_CHOICES_SECONDS, PushRelay } from "@ringback/client";
import { PUSH_TEXTS, type PushTexts } from "@ringback/client/texts";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { AppView } from "../../app/controller/app-controller.js";
import { browserPush } from "../../app/push/browser-push.js";
import {
  type EnablePushStep,
  PUSH_SUBSCRIBE_TIME_LIMIT_MS,
  PushEnableError,
  type PushEnableProblem,
  type PushSetting,
  PushSubscriber,
} from "../../app/push/push-subscriber.js";
import { createIdbStore } from "../../app/storage/idb-key-value.js";
import { errorText } from "../shared/error-text.js";
import { texts } from "../shared/use-texts.js";
import { PushLogList } from "./push-log-list.js";

interface Props {
  readonly view: AppView;
}

/** Why turning on did not end subscribed, kept as facts and worded when shown (it follows the language). */
type TurnOnFailure =
  | { readonly kind: "problem"; readonly problem: PushEnableProblem; readonly detail: string | null }
  | { readonly kind: "no-service-worker" }
  | { readonly kind: "error"; readonly error: unknown };

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

/**
 * Settings › Ring when the app is closed: Web Push on or off, and how often an unanswered call rings again. Turning
 * on shows each step while it runs (the browser's push service and the relay each within
 * `PUSH_SUBSCRIBE_TIME_LIMIT_MS`), and when it fails, why and what to do.
 */
export function PushSettings({ view }: Props) {
  const t = texts(PUSH_TEXTS, view.interfaceLanguage);
  const serverUrl = view.pairing?.identity.serverUrl;
  const deviceToken = view.pairing?.identity.deviceToken;
  const subscriber = useMemo(
    () =>
      serverUrl && deviceToken
        ? new PushSubscriber(browserPush(), new PushRelay({ serverUrl, deviceToken }), createIdbStore())
        : null,
    [serverUrl, deviceToken],
  );
  const [setting, setSetting] = useState<PushSetting | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<EnablePushStep | null>(null);
  const [failure, setFailure] = useState<TurnOnFailure | null>(null);
  const refresh = () => {
    subscriber
      ?.setting()
      .then(setSetting)
      .catch((caught: unknown) => setError(errorText(caught, view.interfaceLanguage)));
  };
  useEffect(refresh, [subscriber]);
  if (!subscriber || !setting) return null;

  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    setFailure(null);
    try {
      await work();
    } catch (caught) {
      setError(errorText(caught, view.interfaceLanguage));
    }
    refresh();
  };
  const turnOn = async () => {
    setError(null);
    setFailure(null);
    setStep("asking-permission");
    try {
      const outcome = await subscriber.enable(setting.repeatSeconds, setStep);
      if (outcome === "no-service-worker") setFailure({ kind: "no-service-worker" });
    } catch (caught) {
      setFailure(
        caught instanceof PushEnableError
          ? { kind: "problem", problem: caught.problem, detail: caught.detail }
          : { kind: "error", error: caught },
      );
    } finally {
      setStep(null);
      refresh();
    }
  };
  const state =
    step !== null
      ? "turning-on"
      : setting.permission === "unsupported" || setting.permission === "denied"
        ? setting.permission
        : setting.isSubscribed
          ? "on"
          : "off";
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
      {failure && (
        <p
          class="error"
          role="alert"
          data-testid="push-problem"
          data-kind={failure.kind === "problem" ? failure.problem : failure.kind}
        >
          {failureText(failure, t, view.interfaceLanguage)}
        </p>
      )}
      {setting.permission !== "unsupported" && setting.permission !== "denied" && (
        <div class="row">
          {setting.isSubscribed ? (
            <button type="button" data-testid="push-off" onClick={() => run(() => subscriber.disable())}>
              {t.turnOff}
            </button>
          ) : (
            <button
              type="button"
              data-testid="push-on"
              disabled={step !== null}
              onClick={() => turnOn().catch(() => undefined)}
            >
              {step !== null ? t.turningOn : t.turnOn}
            </button>
          )}
          <label>
            {t.repeat}{" "}
            <select
              data-testid="push-repeat"
              value={String(setting.repeatSeconds)}
              onChange={(event) => run(() => subscriber.setRepeat(Number(event.currentTarget.value)))}
            >
              {PUSH_REPEAT_CHOICES_SECONDS.map((seconds) => (
                <option key={seconds} value={String(seconds)}>
                  {t.repeatEvery(seconds)}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      {error && <p class="error">{error}</p>}
      <PushLogList view={view} />
    </section>
  );
}
