import type { DecisionEntry } from "../calls/call-record.js";

/*
 * A decision is the user's statement that settles an open question of the brief. The rule is kept simple and
 * predictable: while the brief has an open question not yet settled, anything the user says that is not itself a
 * question (and not a bare thank-you or goodbye) is recorded as the decision on the open question it shares the
 * most words with, or the first unsettled one when it shares none. The screen lists decisions with the question
 * they settle, so a wrong match is visible.
 */

const QUESTION_START =
  /^(?:who|what|when|where|why|how|which|whose|is|are|was|were|do|does|did|can|could|should|would|will|shall|may|might|have|has|had)\b/i;
const CHINESE_QUESTION = /[吗呢么]$|^(?:为什么|怎么|什么|哪|谁|是否|能否|可否|要不要|是不是)/u;
const COURTESY =
  /^(?:thanks?( you)?|thank you( very much)?|ok thanks|bye|goodbye|cheers|谢谢(你)?|再见|拜拜)[.!。！\s]*$/iu;

/** True when the text asks something rather than settles it. */
export function isQuestion(text: string): boolean {
  const trimmed = text.trim();
  if (/[?？]\s*$/.test(trimmed)) return true;
  const bare = trimmed.replace(/[.!。！\s]+$/u, "");
  return QUESTION_START.test(bare) || CHINESE_QUESTION.test(bare);
}

/** Words for matching: latin words of 3+ letters, and every pair of adjacent Han characters. */
function words(text: string): Set<string> {
  const lower = text.toLowerCase();
  const found = new Set(
    lower.match(/[\p{L}\p{N}]{3,}/gu)?.filter((word) => !/\p{Script=Han}/u.test(word)) ?? [],
  );
  const han = lower.match(/\p{Script=Han}+/gu) ?? [];
  for (const run of han)
    for (let index = 0; index + 1 < run.length; index++) found.add(run.slice(index, index + 2));
  return found;
}

/** The open question a statement settles, or null when it is not a decision. */
export function decisionFor(
  statement: string,
  openQuestions: readonly string[],
  decisions: readonly DecisionEntry[],
): string | null {
  const text = statement.trim();
  if (text === "" || isQuestion(text) || COURTESY.test(text)) return null;
  const settled = new Set(decisions.map((decision) => decision.question));
  const open = openQuestions.filter((question) => !settled.has(question));
  if (open.length === 0) return null;
  const said = words(text);
  let best = open[0]!;
  let bestShared = 0;
  for (const question of open) {
    let shared = 0;
    for (const word of words(question)) if (said.has(word)) shared += 1;
    if (shared > bestShared) {
      best = question;
      bestShared = shared;
    }
  }
  return best;
}
