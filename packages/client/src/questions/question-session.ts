import type { CallRecord, ConversationEntry, DecisionEntry } from "../calls/call-record.js";
import { Observable } from "../controller/observable.js";
import type { BriefScript } from "../reading/brief-script.js";
import { addressed } from "../reading/form-of-address.js";
import type { QuestionChannel } from "../storage/local-settings.js";
import type { PreparedVoice, VoicePlatform } from "../voice/voice-platform.js";
import type { VoiceSettings } from "../voice/voice-settings.js";
import { AnswerChunker } from "./answer-chunker.js";
import { streamAnswer } from "./ask-model.js";
import { decisionFor } from "./decisions.js";
import type { ListeningProgress } from "./listening-progress.js";
import { type ModelProblem, modelProblemOf } from "./model-problem.js";
import { questionMessages } from "./question-prompt.js";

export interface QuestionSessionView {
  readonly status: "idle" | "answering" | "failed" | "no-channel";
  /** The answer so far, while it streams. */
  readonly partialAnswer: string;
  /** Why the last question got no answer; the screen words it in the interface language. */
  readonly error: ModelProblem | null;
}

export interface QuestionSessionDependencies {
  readonly script: BriefScript;
  /** The call record as it is now (conversation and decisions so far). */
  readonly record: () => CallRecord;
  readonly progress: () => ListeningProgress;
  readonly channel: () => Promise<QuestionChannel | null>;
  readonly formOfAddress: string | null;
  /** Keeps the conversation and decisions in the call record. */
  readonly save: (change: { conversation: ConversationEntry[]; decisions: DecisionEntry[] }) => Promise<void>;
  /** The brief stops reading while the user asks and hears the answer. */
  readonly pauseReading: () => void;
  readonly voice: VoicePlatform;
  readonly voiceSettings: () => VoiceSettings;
  readonly now?: () => Date;
  readonly fetch?: typeof fetch;
}

/**
 * In-call questions: the user's question (typed or spoken) goes with the report, the brief, the listening progress
 * and the conversation so far to the device's own language model; the answer streams in, is read aloud sentence by
 * sentence in the brief's language as it arrives, and both land in the call record, with any decision.
 */
export class QuestionSession extends Observable<QuestionSessionView> {
  #abort: AbortController | null = null;
  #speaking: Promise<void> = Promise.resolve();
  #voice: PreparedVoice | null = null;
  #turn = 0;

  constructor(private readonly deps: QuestionSessionDependencies) {
    super({ status: "idle", partialAnswer: "", error: null });
  }

  async ask(question: string): Promise<void> {
    const text = question.trim();
    if (text === "") return;
    this.stop();
    const turn = ++this.#turn;
    const channel = await this.deps.channel();
    if (!channel) {
      this.update({ status: "no-channel", error: null });
      return;
    }
    const { script } = this.deps;
    const language = script.language;
    const record = this.deps.record();
    const at = () => (this.deps.now?.() ?? new Date()).toISOString();
    const settles = decisionFor(text, script.openQuestions, record.decisions);
    const decisions = settles
      ? [...record.decisions, { text, at: at(), question: settles }]
      : [...record.decisions];
    const asked: ConversationEntry[] = [...record.conversation, { role: "user", text, at: at() }];
    await this.deps.save({ conversation: asked, decisions });
    this.deps.pauseReading();
    this.#abort = new AbortController();
    this.update({ status: "answering", partialAnswer: "", error: null });
    const chunker = new AnswerChunker(language);
    const say = (sentences: string[]) => {
      for (const sentence of sentences)
        this.#say(addressed(sentence, this.deps.formOfAddress, language), turn);
    };
    try {
      const answer = await streamAnswer({
        channel,
        messages: questionMessages(
          {
            payload: record.payload,
            script,
            progress: this.deps.progress(),
            conversation: record.conversation,
            decisions: record.decisions,
            formOfAddress: this.deps.formOfAddress,
          },
          text,
        ),
        signal: this.#abort.signal,
        fetch: this.deps.fetch,
        onDelta: (delta) => {
          if (turn !== this.#turn) return;
          this.update({ partialAnswer: this.view.partialAnswer + delta });
          say(chunker.push(delta));
        },
      });
      if (turn !== this.#turn) return;
      say(chunker.flush());
      const spoken = addressed(answer, this.deps.formOfAddress, language);
      await this.deps.save({
        conversation: [...asked, { role: "assistant", text: spoken, at: at() }],
        decisions,
      });
      this.update({ status: "idle", partialAnswer: "" });
    } catch (error) {
      if (turn !== this.#turn) return;
      this.update({ status: "failed", error: modelProblemOf(error) });
    } finally {
      if (turn === this.#turn) this.#abort = null;
    }
  }

  /** Stops the answer being streamed and read (a new question, hang-up). */
  stop(): void {
    this.#turn += 1;
    this.#abort?.abort();
    this.#abort = null;
    this.#voice?.cancel();
    this.#voice = null;
    this.#speaking = Promise.resolve();
    if (this.view.status === "answering") this.update({ status: "idle", partialAnswer: "" });
  }

  /** Sentences are read one after another, each prepared when its turn comes. */
  #say(sentence: string, turn: number): void {
    this.#speaking = this.#speaking
      .then(async () => {
        if (turn !== this.#turn) return;
        const voice = await this.deps.voice.prepare(
          [sentence],
          this.deps.script.language,
          this.deps.voiceSettings(),
        );
        if (turn !== this.#turn) return;
        this.#voice = voice;
        await voice.speak(sentence);
      })
      .catch(() => {
        // The answer stays on screen when the voice fails; reading it aloud is a convenience.
      });
  }
}
