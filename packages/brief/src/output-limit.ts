import { characterCount, maxSpokenChars } from "./checks.js";

/**
 * The spoken paragraph the prompt asks for is at most this long, whatever the report (about 50 s read aloud):
 * a call is listened to, and every character is written by the model at a laptop's 5-15 tokens/s.
 */
export const SPOKEN_TARGET_MAX_CHARS = 700;
/** What the brief needs besides the spoken paragraph's share: the title, the JSON around it, open questions. */
const BRIEF_OUTPUT_BASE_TOKENS = 160;
/** Cards and critical facts restate the spoken paragraph's content: together about as long again. */
const SPOKEN_SHARE_OF_OUTPUT = 2;
/** Characters of a brief language per token, on the short side (German, Spanish; English has about 4). */
const OUTPUT_CHARS_PER_TOKEN = 3;
/** The least output limit: a short report's brief still has a title, a card and its facts. */
export const BRIEF_OUTPUT_TOKENS_MIN = 320;
/** The most: the brief of a report long enough for the longest spoken paragraph. */
export const BRIEF_OUTPUT_TOKENS_MAX =
  BRIEF_OUTPUT_BASE_TOKENS +
  SPOKEN_SHARE_OF_OUTPUT * Math.ceil(SPOKEN_TARGET_MAX_CHARS / OUTPUT_CHARS_PER_TOKEN);

/**
 * The most characters the prompt asks the spoken paragraph to have for this original: the spec's 60 % and at
 * most `SPOKEN_TARGET_MAX_CHARS`; null under 300 characters, where the spec sets no limit.
 */
export function spokenTargetChars(original: string): number | null {
  const limit = maxSpokenChars(original);
  return limit === null ? null : Math.min(limit, SPOKEN_TARGET_MAX_CHARS);
}

/**
 * The output limit (`max_tokens`) of a brief of `original`: room for a whole brief in the schema at the sizes the
 * prompt asks for, and no more, so a model that runs on stops there instead of at the timeout.
 */
export function briefOutputTokens(original: string): number {
  const spokenChars = spokenTargetChars(original) ?? characterCount(original);
  const spokenTokens = Math.ceil(spokenChars / OUTPUT_CHARS_PER_TOKEN);
  const tokens = BRIEF_OUTPUT_BASE_TOKENS + SPOKEN_SHARE_OF_OUTPUT * spokenTokens;
  return Math.min(BRIEF_OUTPUT_TOKENS_MAX, Math.max(BRIEF_OUTPUT_TOKENS_MIN, tokens));
}
