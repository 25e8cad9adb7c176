import type { VoiceOption } from "@ringback/client";
import { SPEECH_SPEED_MAX, SPEECH_SPEED_MIN } from "@ringback/client";
import { FLEET_TEXTS, SETTINGS_TEXTS } from "@ringback/client/texts";
import { useEffect, useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

const SPEED_STEP = 0.1;

/**
 * Settings › Voice: the browser's own voices and the speed, 0.5x to 2x, and voice commands in a round-up where the
 * browser recognises speech.
 */
export function VoiceSettingsPanel({ controller, view }: Props) {
  const t = texts(SETTINGS_TEXTS, view.interfaceLanguage);
  const ft = texts(FLEET_TEXTS, view.interfaceLanguage);
  const hasSpeechRecognition = "SpeechRecognition" in window || "webkitSpeechRecognition" in window;
  // The sample is spoken in the report language, whatever the interface language is.
  const [options, setOptions] = useState<VoiceOption[] | null>(null);
  useEffect(() => {
    controller.voicePlatform
      .listVoices(controller.view.voice)
      .then(setOptions)
      .catch(() => setOptions([]));
  }, [controller]);
  const { voice } = view;
  return (
    <section class="card voice-settings" data-testid="voice-settings">
      <h2>{t.voice}</h2>
      <label class="field">
        {t.voice}
        <select
          value={voice.voiceURI ?? ""}
          onChange={(event) =>
            controller.preferences.saveVoice({ ...voice, voiceURI: event.currentTarget.value || null })
          }
        >
          <option value="">{t.voiceAutomatic}</option>
          {(options ?? []).map((option) => (
            <option key={option.id} value={option.id}>
              {option.name} ({option.language})
            </option>
          ))}
        </select>
      </label>
      {options !== null && options.length === 0 && <p class="hint">{t.noVoices}</p>}
      <label class="field">
        {t.speed(voice.speed.toFixed(1))}
        <input
          type="range"
          min={SPEECH_SPEED_MIN}
          max={SPEECH_SPEED_MAX}
          step={SPEED_STEP}
          value={voice.speed}
          onInput={(event) =>
            controller.preferences.saveVoice({ ...voice, speed: Number(event.currentTarget.value) })
          }
        />
      </label>
      <button
        type="button"
        onClick={() =>
          controller.preferences
            .sampleVoice(SETTINGS_TEXTS[view.reportLanguage.startsWith("zh") ? "zh" : "en"].voiceSample)
            .catch(() => undefined)
        }
      >
        {t.testVoice}
      </button>
      {hasSpeechRecognition && (
        <label class="field">
          <span>
            <input
              type="checkbox"
              data-testid="round-up-voice-commands"
              checked={voice.roundUpVoiceCommands ?? false}
              onChange={(event) =>
                controller.preferences.saveVoice({
                  ...voice,
                  roundUpVoiceCommands: event.currentTarget.checked,
                })
              }
            />{" "}
            {ft.voiceCommands}
          </span>
          <span class="hint">{ft.voiceCommandsHint}</span>
        </label>
      )}
    </section>
  );
}
