import { estimateTokens } from "./token-estimate.js";

/** A fenced code block longer than this many lines keeps its first and last lines only. */
const CODE_BLOCK_HEAD_LINES = 4;
const CODE_BLOCK_TAIL_LINES = 2;
/** A run of at least this many file-path lines (a list of changed files) keeps its first and last lines only. */
const FILE_LIST_MIN_LINES = 8;
const FILE_LIST_HEAD_LINES = 4;
const FILE_LIST_TAIL_LINES = 1;
/** When the middle must go, the head keeps this share of the budget and the tail the rest. */
const HEAD_SHARE = 0.6;

/** What the model is given of a report. */
export interface GivenReport {
  text: string;
  /** Whether anything was left out. */
  isCut: boolean;
  originalChars: number;
}

const FENCE = /^\s*(```|~~~)/;
// A line that is a path, perhaps as a list item or a git status / diffstat line: "- src/a/b.ts", "M  lib/x.py",
// " src/x.ts | 12 ++--".
const FILE_LINE =
  /^\s*(?:[-*+]\s+|[MADRCU?!]{1,2}\s+|\d+\.\s+)?`?[\w.@~-]*[\\/][\w./\\@~-]+`?(?:\s*\|.*|\s*\(.*\)|:\d+.*)?\s*$/;

function shortenCodeBlocks(lines: string[]): string[] {
  const result: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (!FENCE.test(line)) {
      result.push(line);
      index++;
      continue;
    }
    let end = index + 1;
    while (end < lines.length && !FENCE.test(lines[end] as string)) end++;
    const body = lines.slice(index + 1, end);
    const kept = CODE_BLOCK_HEAD_LINES + CODE_BLOCK_TAIL_LINES;
    result.push(line);
    if (body.length > kept + 1) {
      result.push(
        ...body.slice(0, CODE_BLOCK_HEAD_LINES),
        `[… ${body.length - kept} lines of code left out …]`,
        ...body.slice(-CODE_BLOCK_TAIL_LINES),
      );
    } else {
      result.push(...body);
    }
    if (end < lines.length) result.push(lines[end] as string);
    index = end + 1;
  }
  return result;
}

function shortenFileLists(lines: string[]): string[] {
  const result: string[] = [];
  let index = 0;
  while (index < lines.length) {
    let end = index;
    while (end < lines.length && FILE_LINE.test(lines[end] as string)) end++;
    const run = lines.slice(index, end);
    if (run.length >= FILE_LIST_MIN_LINES) {
      result.push(
        ...run.slice(0, FILE_LIST_HEAD_LINES),
        `[… ${run.length - FILE_LIST_HEAD_LINES - FILE_LIST_TAIL_LINES} more files …]`,
        ...run.slice(-FILE_LIST_TAIL_LINES),
      );
      index = end;
    } else if (run.length > 0) {
      result.push(...run);
      index = end;
    } else {
      result.push(lines[index] as string);
      index++;
    }
  }
  return result;
}

/** The first characters of `text` within `tokens`, or the last ones with `fromEnd`. */
function charactersWithin(text: string, tokens: number, fromEnd: boolean): string {
  const characters = Array.from(text);
  let low = 0;
  let high = characters.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const part = fromEnd ? characters.slice(-middle) : characters.slice(0, middle);
    if (estimateTokens(part.join("")) <= tokens) low = middle;
    else high = middle - 1;
  }
  return (fromEnd ? characters.slice(characters.length - low) : characters.slice(0, low)).join("");
}

/** Lines from one end while they fit in `tokens` (a first line too long is cut by characters). */
function linesWithin(lines: string[], tokens: number, fromEnd: boolean): string[] {
  const kept: string[] = [];
  let used = 0;
  const ordered = fromEnd ? [...lines].reverse() : lines;
  for (const line of ordered) {
    const cost = estimateTokens(`${line}\n`);
    if (used + cost > tokens) {
      if (kept.length === 0) kept.push(charactersWithin(line, tokens, fromEnd));
      break;
    }
    kept.push(line);
    used += cost;
  }
  return fromEnd ? kept.reverse() : kept;
}

function keepHeadAndTail(lines: string[], budgetTokens: number): string[] {
  const marker = (left: number) => `[… ${left} lines of the report left out here …]`;
  const room = budgetTokens - estimateTokens(marker(lines.length));
  const head = linesWithin(lines, Math.floor(room * HEAD_SHARE), false);
  const tail = linesWithin(lines.slice(head.length), Math.floor(room * (1 - HEAD_SHARE)), true);
  const left = lines.length - head.length - tail.length;
  return left > 0 ? [...head, marker(left), ...tail] : [...head, ...tail];
}

/**
 * The report as the model is given it within `budgetTokens` (estimated), by a stated rule: as written when it
 * fits; else long code blocks keep their first 4 and last 2 lines and lists of 8 or more files their first 4 and
 * last one; if it still does not fit, the head (60 % of the budget) and the tail (40 %) are kept and the middle
 * is left out. Every cut is marked in the text with `[… …]`.
 */
export function reportWithinBudget(text: string, budgetTokens: number): GivenReport {
  const originalChars = Array.from(text).length;
  if (estimateTokens(text) <= budgetTokens) return { text, isCut: false, originalChars };
  const shortened = shortenFileLists(shortenCodeBlocks(text.split(/\r?\n/)));
  const fits = estimateTokens(shortened.join("\n")) <= budgetTokens;
  const lines = fits ? shortened : keepHeadAndTail(shortened, budgetTokens);
  return { text: lines.join("\n"), isCut: true, originalChars };
}
