import { PUSH_REPEAT_CHOICES_SECONDS, PushRelay } from "@ringback/client";
import { PUSH_TEXTS } from "@ringback/client/texts";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { AppView } from "../../app/controller/app-controller.js";
import { browserPush } from "../../app/push/browser-push.js";
import { type PushSetting, PushSubscriber } from "../../app/push/push-subscriber.js";
import { createIdbStore } from "../../app/storage/idb-key-value.js";
import { errorText } from "../shared/error-text.js";
import { texts } from "../shared/use-texts.js";
import { PushLogList } from "./push-log-list.js";

interface Props {
  readonly view: AppView;
}

/** Settings › Ring when the app is closed: Web Push on or off, and how often an unanswered call rings again. */
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
    try {
      await work();
    } catch (caught) {
      setError(errorText(caught, view.interfaceLanguage));
    }
    refresh();
  };
  const status =
    setting.permission === "unsupported"
      ? t.unsupported
      : setting.permission === "denied"
        ? t.denied
        : setting.isSubscribed
          ? t.on
          : t.off;
  return (
    <section class="card push-settings" data-testid="push-settings">
      <h2>{t.title}</h2>
      <p class="hint">{t.hint}</p>
      <p data-testid="push-status">{status}</p>
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
              onClick={() => run(() => subscriber.enable(setting.repeatSeconds))}
            >
              {t.turnOn}
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
