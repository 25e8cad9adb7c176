import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { ComputerSettings } from "./computer-settings.js";
import { DevicesSettings } from "./devices-settings.js";
import { FormOfAddressSettings } from "./form-of-address-settings.js";
import { InterfaceLanguageSettings, ReportLanguageSettings } from "./language-settings.js";
import { PushSettings } from "./push-settings.js";
import { QuestionModelSettings } from "./question-model-settings.js";
import { RingModesSettings } from "./ring-modes-settings.js";
import { RingtonesSettings } from "./ringtones-settings.js";
import { VoiceSettingsPanel } from "./voice-settings.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

/** Settings: devices, ring modes, ringtones, languages, voice, form of address and the model for questions. */
export function SettingsScreen({ controller, view }: Props) {
  const language = view.interfaceLanguage;
  return (
    <section class="settings" data-testid="settings-screen">
      <InterfaceLanguageSettings controller={controller} view={view} />
      <RingModesSettings controller={controller} language={language} />
      <RingtonesSettings controller={controller} language={language} />
      <PushSettings view={view} />
      <ReportLanguageSettings controller={controller} view={view} />
      <VoiceSettingsPanel controller={controller} view={view} />
      <FormOfAddressSettings controller={controller} view={view} />
      <QuestionModelSettings controller={controller} view={view} />
      <ComputerSettings controller={controller} view={view} />
      <DevicesSettings controller={controller} language={language} />
    </section>
  );
}
