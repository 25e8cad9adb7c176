import type { BriefLanguageSyncState } from "@ringback/client";
import { isReportLocale, REPORT_LOCALES } from "@ringback/client";
import type { InterfaceLanguageChoice } from "@ringback/client/texts";
import { SETTINGS_TEXTS, type SettingsTexts } from "@ringback/client/texts";
import { localeName } from "@ringback/client/views";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { errorText } from "../shared/error-text.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

const FOLLOW_SYSTEM = "";

function syncText(state: BriefLanguageSyncState, t: SettingsTexts, view: AppView): string | null {
  switch (state.status) {
    case "idle":
      return null;
    case "sending":
      return t.briefLanguageSending;
    case "saved":
      return t.briefLanguageSaved;
    case "waiting":
      return t.briefLanguageWaiting;
    case "rejected":
      return t.briefLanguageRejected(errorText(state.error, view.interfaceLanguage));
  }
}

/** Settings › Report language: 90 locales or the system's; sent to the computer, which writes briefs in it. */
export function ReportLanguageSettings({ controller, view }: Props) {
  const t = texts(SETTINGS_TEXTS, view.interfaceLanguage);
  const name = (tag: string) => `${localeName(tag, view.interfaceLanguage)} (${tag})`;
  const systemLanguage = view.reportLanguageChoice === null ? view.reportLanguage : null;
  const status = syncText(view.briefLanguageSync, t, view);
  return (
    <section class="card report-language-settings" data-testid="report-language-settings">
      <h2>{t.reportLanguage}</h2>
      <p class="hint">{t.reportLanguageHint}</p>
      <select
        data-testid="report-language"
        value={view.reportLanguageChoice ?? FOLLOW_SYSTEM}
        onChange={(event) => {
          const value = event.currentTarget.value;
          controller.preferences
            .setReportLanguage(isReportLocale(value) ? value : null)
            .catch(() => undefined);
        }}
      >
        <option value={FOLLOW_SYSTEM}>{t.followSystem(name(systemLanguage ?? view.reportLanguage))}</option>
        {REPORT_LOCALES.map((tag) => (
          <option key={tag} value={tag}>
            {name(tag)}
          </option>
        ))}
      </select>
      {status && (
        <p class="hint" data-testid="brief-language-status" data-status={view.briefLanguageSync.status}>
          {status}
        </p>
      )}
    </section>
  );
}

/** Settings › Interface language: the system's, 中文 or English. Brief, voice and answers keep their language. */
export function InterfaceLanguageSettings({ controller, view }: Props) {
  const t = texts(SETTINGS_TEXTS, view.interfaceLanguage);
  const choices: { value: InterfaceLanguageChoice; label: string }[] = [
    { value: "system", label: t.interfaceSystem },
    { value: "zh", label: t.interfaceChinese },
    { value: "en", label: t.interfaceEnglish },
  ];
  return (
    <section class="card interface-language-settings" data-testid="interface-language-settings">
      <h2>{t.interfaceLanguage}</h2>
      <div class="choices" role="radiogroup" aria-label={t.interfaceLanguage}>
        {choices.map((choice) => (
          <label key={choice.value} class="choice">
            <input
              type="radio"
              name="interface-language"
              data-testid={`interface-language-${choice.value}`}
              checked={view.interfaceLanguageChoice === choice.value}
              onChange={() =>
                controller.preferences.setInterfaceLanguage(choice.value).catch(() => undefined)
              }
            />
            {choice.label}
          </label>
        ))}
      </div>
      <p class="hint">{t.interfaceLanguageHint}</p>
    </section>
  );
}
