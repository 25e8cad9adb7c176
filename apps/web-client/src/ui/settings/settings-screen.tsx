import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { DevicesSettings } from "./devices-settings.js";
import { VoiceSettingsPanel } from "./voice-settings.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

/** Settings: Devices and Voice (part 2 adds ring modes, ringtones, tracker, model, encryption and language). */
export function SettingsScreen({ controller, view }: Props) {
  return (
    <section class="settings" data-testid="settings-screen">
      <DevicesSettings controller={controller} />
      <VoiceSettingsPanel controller={controller} view={view} />
    </section>
  );
}
