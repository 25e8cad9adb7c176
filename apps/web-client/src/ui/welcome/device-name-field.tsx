import type { CoreTexts } from "@ringback/client/texts";
import { DEVICE_NAME_MAX_CHARS } from "@ringback/protocol";
import type { WelcomeFormState } from "./use-welcome-form.js";

/** The name this device gets in the account. */
export function DeviceNameField({ state, t }: { readonly state: WelcomeFormState; readonly t: CoreTexts }) {
  return (
    <label class="field">
      {t.deviceName}
      <input
        value={state.fields.deviceName}
        maxLength={DEVICE_NAME_MAX_CHARS}
        data-testid="welcome-device-name"
        onInput={(event) => state.setField("deviceName", event.currentTarget.value)}
      />
    </label>
  );
}
