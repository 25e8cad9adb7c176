import { PushRelay } from "@ringback/client";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { AppView } from "../../app/controller/app-controller.js";
import { browserPush } from "../../app/push/browser-push.js";
import { type PushSetting, PushSubscriber } from "../../app/push/push-subscriber.js";
import { createIdbStore } from "../../app/storage/idb-key-value.js";

interface PushSettingState {
  /** Null while the device is not paired: there is no relay to subscribe with. */
  readonly subscriber: PushSubscriber | null;
  /** Null until read. */
  readonly setting: PushSetting | null;
  /** Reads the setting again (after a change); a failure goes to the hook's `onFailure`. */
  readonly refresh: () => void;
}

/** This device's Web Push subscription through its relay, and the setting as it stands. */
export function usePushSetting(view: AppView, onFailure: (error: unknown) => void): PushSettingState {
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
  const refresh = () => {
    subscriber?.setting().then(setSetting).catch(onFailure);
  };
  useEffect(refresh, [subscriber]);
  return { subscriber, setting, refresh };
}
