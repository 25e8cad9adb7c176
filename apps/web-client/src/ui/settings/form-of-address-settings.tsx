import { defaultFormOfAddress } from "@ringback/client";
import { SETTINGS_TEXTS } from "@ringback/client/texts";
import { useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

/** Settings › Form of address: replaces the briefs' placeholder when a call arrives, in history and in answers. */
export function FormOfAddressSettings({ controller, view }: Props) {
  const t = texts(SETTINGS_TEXTS, view.interfaceLanguage);
  const [value, setValue] = useState(view.formOfAddress ?? "");
  const [isSaved, setSaved] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    await controller.preferences.saveFormOfAddress(value);
    setSaved(true);
  };
  return (
    <form class="card form-of-address-settings" data-testid="form-of-address-settings" onSubmit={save}>
      <h2>{t.formOfAddress}</h2>
      <p class="hint">{t.formOfAddressHint}</p>
      <input
        data-testid="form-of-address"
        placeholder={defaultFormOfAddress(view.reportLanguage)}
        value={value}
        onInput={(event) => {
          setValue(event.currentTarget.value);
          setSaved(false);
        }}
      />
      <div class="row">
        <button type="submit" data-testid="save-form-of-address">
          {t.save}
        </button>
        {isSaved && <span class="hint">{t.saved}</span>}
      </div>
    </form>
  );
}
