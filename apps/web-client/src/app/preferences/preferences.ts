import {
  BriefLanguageSync,
  type DaemonAccess,
  defaultReportLanguage,
  type KeyValueStore,
  type LocalSettings,
  NoComputerError,
  type QuestionChannel,
  type ReportLocale,
  type VoicePlatform,
  type VoiceSettings,
} from "@ringback/client";
import { type InterfaceLanguageChoice, resolveInterfaceLanguage } from "@ringback/client/texts";
import { RingbackError } from "@ringback/protocol";
import type { AppView, ChangeView } from "../controller/app-view.js";
import { VoiceSettingsStore } from "../storage/voice-settings-store.js";

export interface PreferencesOptions {
  readonly store: KeyValueStore;
  readonly settings: LocalSettings;
  readonly voice: VoicePlatform;
  readonly daemon: DaemonAccess;
  /** `navigator.languages`: the interface and report languages follow it by default. */
  readonly preferredLanguages: readonly string[];
  readonly view: () => AppView;
  readonly changeView: ChangeView;
}

/** The preferences the view shows, as stored on the device. */
type StoredPreferences = Pick<
  AppView,
  | "voice"
  | "formOfAddress"
  | "questionChannel"
  | "interfaceLanguageChoice"
  | "interfaceLanguage"
  | "reportLanguageChoice"
  | "reportLanguage"
>;

/**
 * The person's preferences on this device (voice, form of address, interface and report languages, the question
 * model): each is saved here and shown at once; the report language also goes to the computer, which writes briefs
 * in it.
 */
export class Preferences {
  readonly #options: PreferencesOptions;
  readonly #voiceSettings: VoiceSettingsStore;
  #briefLanguage: BriefLanguageSync | null = null;

  constructor(options: PreferencesOptions) {
    this.#options = options;
    this.#voiceSettings = new VoiceSettingsStore(options.store);
  }

  async load(): Promise<StoredPreferences> {
    const { settings, preferredLanguages } = this.#options;
    const [voice, formOfAddress, interfaceChoice, reportChoice, questionChannel] = await Promise.all([
      this.#voiceSettings.loadVoice(),
      settings.loadFormOfAddress(),
      settings.loadInterfaceLanguage(),
      settings.loadReportLanguage(),
      settings.loadQuestionChannel(),
    ]);
    return {
      voice,
      formOfAddress,
      questionChannel,
      interfaceLanguageChoice: interfaceChoice,
      interfaceLanguage: resolveInterfaceLanguage(interfaceChoice, preferredLanguages),
      reportLanguageChoice: reportChoice,
      reportLanguage: reportChoice ?? defaultReportLanguage(preferredLanguages),
    };
  }

  async saveVoice(voice: VoiceSettings): Promise<void> {
    await this.#voiceSettings.saveVoice(voice);
    this.#options.changeView({ voice: await this.#voiceSettings.loadVoice() });
  }

  /** Settings › Voice: reads a sentence with the chosen voice and speed, in the report language. */
  async sampleVoice(text: string): Promise<void> {
    const { reportLanguage, voice: settings } = this.#options.view();
    const voice = await this.#options.voice.prepare([text], reportLanguage, settings);
    await voice.speak(text);
  }

  async saveFormOfAddress(value: string): Promise<void> {
    await this.#options.settings.saveFormOfAddress(value);
    this.#options.changeView({ formOfAddress: await this.#options.settings.loadFormOfAddress() });
  }

  async setInterfaceLanguage(choice: InterfaceLanguageChoice): Promise<void> {
    await this.#options.settings.saveInterfaceLanguage(choice);
    this.#options.changeView({
      interfaceLanguageChoice: choice,
      interfaceLanguage: resolveInterfaceLanguage(choice, this.#options.preferredLanguages),
    });
  }

  /** Settings › Report language: saved here, then sent to the daemon (`PUT /brief/language`). Null follows the system. */
  async setReportLanguage(choice: ReportLocale | null): Promise<void> {
    await this.#options.settings.saveReportLanguage(choice);
    const reportLanguage = choice ?? defaultReportLanguage(this.#options.preferredLanguages);
    this.#options.changeView({ reportLanguageChoice: choice, reportLanguage });
    await this.#briefLanguage?.send(reportLanguage);
  }

  async saveQuestionChannel(channel: QuestionChannel | null): Promise<void> {
    await this.#options.settings.saveQuestionChannel(channel);
    this.#options.changeView({ questionChannel: channel });
  }

  /** Once paired: the daemon writes briefs in the app's report language, from now on and after every change. */
  syncBriefLanguage(): void {
    this.#briefLanguage = new BriefLanguageSync(
      (language) => this.#putBriefLanguage(language),
      (briefLanguageSync) => this.#options.changeView({ briefLanguageSync }),
    );
    this.#briefLanguage.send(this.#options.view().reportLanguage).catch(() => undefined);
  }

  stop(): void {
    this.#briefLanguage?.stop();
  }

  async #putBriefLanguage(language: string): Promise<void> {
    try {
      await (await this.#options.daemon.client()).putBriefLanguage(language);
    } catch (error) {
      // No computer has joined yet: wait for one as for a computer that is offline.
      if (error instanceof NoComputerError) throw new RingbackError("computer_offline", error.message);
      throw error;
    }
  }
}
