/** What the person can say during a round-up. */
export type VoiceCommand = "next" | "skip" | "answer" | "repeat";

/** The words of each command, in English (whole words) and Chinese (anywhere in what was heard). */
const ENGLISH_WORDS: Readonly<Record<VoiceCommand, readonly string[]>> = {
  next: ["next", "next one", "go on", "continue"],
  skip: ["skip", "skip it", "later"],
  answer: ["answer", "reply", "respond", "decide"],
  repeat: ["repeat", "again", "say again", "say that again"],
};
const CHINESE_WORDS: Readonly<Record<VoiceCommand, readonly string[]>> = {
  next: ["下一个", "下一条", "继续"],
  skip: ["跳过", "稍后"],
  answer: ["回应", "回答", "回复", "接听"],
  repeat: ["重复", "再说一遍", "再来一遍", "再说一次"],
};

/**
 * The command in a speech recogniser's transcript, or null when it holds none. When several are heard ("no, skip"
 * after "next"), the last one said counts: people correct themselves.
 */
export function voiceCommandOf(transcript: string): VoiceCommand | null {
  const heard = transcript
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  let found: { command: VoiceCommand; at: number } | null = null;
  const consider = (command: VoiceCommand, at: number) => {
    if (at >= 0 && (found === null || at > found.at)) found = { command, at };
  };
  for (const command of Object.keys(ENGLISH_WORDS) as VoiceCommand[]) {
    for (const words of ENGLISH_WORDS[command]) consider(command, lastWholeWordIndex(heard, words));
    for (const words of CHINESE_WORDS[command]) consider(command, heard.lastIndexOf(words));
  }
  return (found as { command: VoiceCommand } | null)?.command ?? null;
}

function lastWholeWordIndex(text: string, words: string): number {
  const matches = [...` ${text} `.matchAll(new RegExp(` ${words} `, "g"))];
  // Minus the leading space added above.
  return matches.length === 0 ? -1 : (matches[matches.length - 1]?.index ?? -1);
}
