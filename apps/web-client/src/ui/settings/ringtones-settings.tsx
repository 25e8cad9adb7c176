import type { RingtoneFileInfo } from "@ringback/client";
import { fileRef, itemsUsing, RINGTONE_ITEMS, RingtoneFileError, type RingtoneItem } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { SETTINGS_TEXTS } from "@ringback/client/texts";
import { RINGTONE_FILE_MAX_BYTES } from "@ringback/protocol";
import type { AppController } from "../../app/controller/app-controller.js";
import { errorText } from "../shared/error-text.js";
import { useBusyAction } from "../shared/use-busy-action.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";
import { RingtoneItemList } from "./ringtone-item-list.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
}

/**
 * Settings › Ringtones: the incoming-call, "needs you" and call-waiting tones, and the user's own files (up to 10 MB).
 */
export function RingtonesSettings({ controller, language }: Props) {
  const t = texts(SETTINGS_TEXTS, language);
  const { ringtones } = controller;
  const { choices, files } = useObservable(ringtones);
  const { failure, run, fail } = useBusyAction<"adding">();
  const itemTitle: Record<RingtoneItem, string> = {
    incoming: t.incomingTone,
    needsYou: t.needsYouTone,
    callWaiting: t.callWaitingTone,
  };

  const add = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    // Refused before reading: a huge file need not be loaded to be turned away.
    if (file.size > RINGTONE_FILE_MAX_BYTES) {
      fail("adding", new RingtoneFileError("too_large"));
      return;
    }
    await run("adding", async () =>
      ringtones.addFile({ name: file.name, type: file.type, data: await file.arrayBuffer() }),
    );
  };
  const failureText = (error: unknown) =>
    error instanceof RingtoneFileError
      ? error.problem === "too_large"
        ? t.toneTooLarge
        : t.toneNotAudio
      : errorText(error, language);

  const remove = (file: RingtoneFileInfo) => {
    const using = itemsUsing(choices, fileRef(file.id));
    const question =
      using.length > 0
        ? t.deleteToneInUseConfirm(file.name, using.map((item) => itemTitle[item]).join(", "))
        : t.deleteToneConfirm(file.name);
    if (!confirm(question)) return;
    ringtones.deleteFile(file.id).catch(() => undefined);
  };

  return (
    <section class="card ringtones-settings" data-testid="ringtones-settings">
      <h2>{t.ringtones}</h2>
      {RINGTONE_ITEMS.map((item) => (
        <RingtoneItemList
          key={item}
          item={item}
          title={itemTitle[item]}
          ringtones={ringtones}
          chosen={choices[item]}
          files={files}
          t={t}
          onDelete={remove}
        />
      ))}
      <label class="field">
        {t.addToneFile}
        <input
          type="file"
          accept="audio/*"
          data-testid="tone-file"
          onChange={(event) => add(event.currentTarget).catch(() => undefined)}
        />
      </label>
      {failure && (
        <p class="error" data-testid="tone-error">
          {failureText(failure.error)}
        </p>
      )}
      <button type="button" onClick={() => ringtones.stopPreview()}>
        {t.stopPreview}
      </button>
    </section>
  );
}
