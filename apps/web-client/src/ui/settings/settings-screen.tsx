import { SETTINGS_TEXTS, type SettingsTexts } from "@ringback/client/texts";
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { texts } from "../shared/use-texts.js";
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

/** The sections of Settings, in the order the index lists them. */
const SETTINGS_SECTIONS = ["ringing", "language-voice", "questions", "computer", "devices"] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

function sectionTitle(section: SettingsSection, t: SettingsTexts): { title: string; summary: string } {
  switch (section) {
    case "ringing":
      return { title: t.sectionRinging, summary: t.sectionRingingSummary };
    case "language-voice":
      return { title: t.sectionLanguageVoice, summary: t.sectionLanguageVoiceSummary };
    case "questions":
      return { title: t.sectionQuestions, summary: t.sectionQuestionsSummary };
    case "computer":
      return { title: t.sectionComputer, summary: t.sectionComputerSummary };
    case "devices":
      return { title: t.sectionDevices, summary: t.sectionDevicesSummary };
  }
}

function SectionContent({ section, controller, view }: Props & { readonly section: SettingsSection }) {
  const language = view.interfaceLanguage;
  switch (section) {
    case "ringing":
      return (
        <>
          <RingModesSettings controller={controller} language={language} />
          <RingtonesSettings controller={controller} language={language} />
          <PushSettings view={view} />
        </>
      );
    case "language-voice":
      return (
        <>
          <InterfaceLanguageSettings controller={controller} view={view} />
          <ReportLanguageSettings controller={controller} view={view} />
          <VoiceSettingsPanel controller={controller} view={view} />
          <FormOfAddressSettings controller={controller} view={view} />
        </>
      );
    case "questions":
      return <QuestionModelSettings controller={controller} view={view} />;
    case "computer":
      return <ComputerSettings controller={controller} view={view} />;
    case "devices":
      return <DevicesSettings controller={controller} language={language} />;
  }
}

/**
 * Settings: a short index of sections (ringing; language and voice; questions; your computer; devices), each a
 * large row a thumb reaches at the top of the page, opening that section alone with a way back to the index. Every
 * section stays mounted while Settings is open, hidden when not chosen, so what is typed in one survives a visit to
 * another, and a problem on screen in one follows a language changed in another.
 */
export function SettingsScreen({ controller, view }: Props) {
  const t = texts(SETTINGS_TEXTS, view.interfaceLanguage);
  const [section, setSection] = useState<SettingsSection | null>(null);
  const open = (next: SettingsSection | null) => {
    setSection(next);
    // A section opens at its top, not where the index was scrolled to.
    window.scrollTo(0, 0);
  };

  return (
    <section class="settings" data-testid="settings-screen" data-section={section ?? "index"}>
      {section === null ? (
        // The tab above already says Settings: the index starts at once, within a thumb's reach.
        <nav key="index" class="settings-index" aria-label={t.settingsIndex}>
          {SETTINGS_SECTIONS.map((entry) => {
            const { title, summary } = sectionTitle(entry, t);
            return (
              <SectionLink key={entry} section={entry} onOpen={open}>
                <span class="section-name">{title}</span>
                <span class="section-summary">{summary}</span>
              </SectionLink>
            );
          })}
        </nav>
      ) : (
        <header key="section" class="settings-section-header">
          <button type="button" class="back-to-index" data-testid="settings-index" onClick={() => open(null)}>
            ‹ {t.allSettings}
          </button>
          <h1 class="settings-title">{sectionTitle(section, t).title}</h1>
        </header>
      )}
      <div key="sections" class="settings-sections">
        {SETTINGS_SECTIONS.map((entry) => (
          <div key={entry} class="settings-section" data-settings-section={entry} hidden={entry !== section}>
            <SectionContent section={entry} controller={controller} view={view} />
          </div>
        ))}
      </div>
    </section>
  );
}

function SectionLink(props: {
  readonly section: SettingsSection;
  readonly onOpen: (section: SettingsSection) => void;
  readonly children: ComponentChildren;
}) {
  return (
    <button
      type="button"
      class="section-link"
      data-testid={`settings-section-${props.section}`}
      onClick={() => props.onOpen(props.section)}
    >
      <span class="section-text">{props.children}</span>
      <span class="chevron" aria-hidden="true">
        ›
      </span>
    </button>
  );
}
