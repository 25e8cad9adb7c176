import type { SealedReportPayload } from "@ringback/protocol";
import { addressed } from "./form-of-address.js";
import { type SplitOptions, splitSentences } from "./sentences.js";
import { speakableText } from "./speakable-text.js";

/** A part of the call read aloud: the spoken paragraph, the supplementary paragraph, the original text, or a card. */
export interface ScriptSegment {
  readonly kind: "spoken" | "supplementary" | "original" | "card";
  readonly title: string | null;
  readonly sentences: readonly string[];
}

/** What a call shows and reads, with the form of address already in place. */
export interface BriefScript {
  readonly language: string;
  readonly title: string;
  /** Read when the call is answered, in order. */
  readonly main: readonly ScriptSegment[];
  /** Read when the user jumps to one. */
  readonly cards: readonly ScriptSegment[];
  readonly cardTexts: readonly { readonly title: string; readonly body: string }[];
  readonly openQuestions: readonly string[];
  /** The report as the agent wrote it, always readable on screen. */
  readonly originalText: string;
  readonly isBriefFailed: boolean;
}

export interface ScriptOptions extends Omit<SplitOptions, "language"> {
  readonly formOfAddress: string | null;
}

/** Builds the reading script of a call. With a `failed` brief the original text is read aloud instead. */
export function briefScript(payload: SealedReportPayload, options: ScriptOptions): BriefScript {
  const { report, brief } = payload;
  const language = brief.meta.language;
  const say = (text: string) => addressed(text, options.formOfAddress, language);
  const split = (text: string) => splitSentences(say(text), { ...options, language });
  const isBriefFailed = brief.meta.status === "failed" || brief.spoken.trim() === "";
  const firstLine =
    speakableText(report.text)
      .split(/\r?\n/)
      .find((line) => line.trim() !== "")
      ?.trim() ?? "";
  const main: ScriptSegment[] = isBriefFailed
    ? [{ kind: "original", title: null, sentences: split(speakableText(report.text)) }]
    : [{ kind: "spoken", title: null, sentences: split(brief.spoken) }];
  if (!isBriefFailed && brief.supplementary && brief.supplementary.text.trim() !== "") {
    const heading = say(brief.supplementary.heading);
    main.push({
      kind: "supplementary",
      title: heading,
      sentences: [...split(heading), ...split(brief.supplementary.text)],
    });
  }
  const cardTexts = isBriefFailed
    ? []
    : brief.cards.map((card) => ({ title: say(card.title), body: say(card.body) }));
  return {
    language,
    title: isBriefFailed ? firstLine : say(brief.title),
    main: main.filter((segment) => segment.sentences.length > 0),
    cards: cardTexts.map((card) => ({
      kind: "card" as const,
      title: card.title,
      sentences: [...split(card.title), ...split(card.body)],
    })),
    cardTexts,
    openQuestions: isBriefFailed ? [] : brief.openQuestions.map(say),
    originalText: report.text,
    isBriefFailed,
  };
}

/** Every sentence the call may read, main part first, then the cards: what "preparing" synthesises. */
export function scriptSentences(script: BriefScript): string[] {
  return [...script.main, ...script.cards].flatMap((segment) => segment.sentences);
}
