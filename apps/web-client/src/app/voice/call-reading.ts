import {
  type BriefScript,
  briefScript,
  type CallRecord,
  type CallsModel,
  type PreparedVoice,
  type ReadingProblem,
  scriptSentences,
  type VoicePlatform,
  type VoiceSettings,
} from "@ringback/client";
import { voiceProblemOf } from "./voice-problem.js";

/** The user's settings a call is read with. */
interface ReadingSettings {
  readonly formOfAddress: string | null;
  readonly voice: VoiceSettings;
}

/**
 * How calls are read aloud on this device: each call's voice is synthesised before it rings and kept with the
 * script it was made for until the call is hung up here; a call without one (missed, answered later) is prepared
 * when it is answered.
 */
export class CallReading {
  readonly #voice: VoicePlatform;
  readonly #settings: () => ReadingSettings;
  readonly #prepared = new Map<string, { script: BriefScript; voice: PreparedVoice }>();

  constructor(voice: VoicePlatform, settings: () => ReadingSettings) {
    this.#voice = voice;
    this.#settings = settings;
  }

  /** The reading script of a call, with the user's form of address. */
  script(record: CallRecord): BriefScript {
    return this.#prepared.get(record.eventId)?.script ?? this.#newScript(record);
  }

  /** The voice prepared before ringing; a missed call answered later is prepared now. Null when none can be. */
  async voiceFor(record: CallRecord): Promise<PreparedVoice | null> {
    const prepared = this.#prepared.get(record.eventId);
    if (prepared) return prepared.voice;
    const script = this.script(record);
    try {
      return await this.#voice.prepare(scriptSentences(script), script.language, this.#settings().voice);
    } catch {
      return null;
    }
  }

  /** The call center's preparation before a call rings: null when ready, else why it cannot read aloud. */
  async prepare(record: CallRecord): Promise<ReadingProblem | null> {
    const script = this.#newScript(record);
    try {
      const voice = await this.#voice.prepare(
        scriptSentences(script),
        script.language,
        this.#settings().voice,
      );
      this.#prepared.set(record.eventId, { script, voice });
      return null;
    } catch (error) {
      return voiceProblemOf(error);
    }
  }

  /** After each step of the calls: a call hung up here (ended as answered on this device) is read no more. */
  followCalls(calls: CallsModel): void {
    for (const eventId of this.#prepared.keys()) {
      const status = calls.records[eventId]?.status;
      if (status?.state === "ended" && status.outcome === "answered") this.#prepared.delete(eventId);
    }
  }

  #newScript(record: CallRecord): BriefScript {
    return briefScript(record.payload, { formOfAddress: this.#settings().formOfAddress });
  }
}
