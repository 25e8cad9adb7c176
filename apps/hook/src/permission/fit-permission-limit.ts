import type { PermissionRequestPost, PermissionShortened } from "@ringback/protocol";
import { REPORT_BODY_MAX_BYTES } from "../daemon-call/protocol-constants.js";
import { prefixWithin } from "../report/fit-body-limit.js";

/** Ends every text the hook cut to fit the daemon's body limit; `shortened` says which parts were cut. */
export const CUT_MARK = " [… cut by ringback-hook]";

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

function withShortened(post: PermissionRequestPost, part: PermissionShortened): PermissionRequestPost {
  const shortened = post.shortened ?? [];
  return { ...post, shortened: shortened.includes(part) ? shortened : [...shortened, part] };
}

/** The start of `text` in `length` UTF-16 units, one less rather than half a surrogate pair. */
function startOf(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/**
 * `value` with every string longer than `maxChars` (plus the mark, so a cut never makes one longer) cut to
 * `maxChars` and marked. Keys, numbers and the shape stay as they were.
 */
function capStrings(value: unknown, maxChars: number): unknown {
  if (typeof value === "string")
    return value.length > maxChars + CUT_MARK.length ? `${startOf(value, maxChars)}${CUT_MARK}` : value;
  if (Array.isArray(value)) return value.map((item) => capStrings(item, maxChars));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, capStrings(item, maxChars)]));
  return value;
}

function longestString(value: unknown): number {
  if (typeof value === "string") return value.length;
  const items = Array.isArray(value)
    ? value
    : typeof value === "object" && value !== null
      ? Object.values(value)
      : [];
  return items.reduce((longest: number, item) => Math.max(longest, longestString(item)), 0);
}

/** The ask with its last words cut (keeping their start) so that the whole body fits `maxBytes`, if it can. */
function cutLastWords(
  post: PermissionRequestPost,
  lastWords: string,
  maxBytes: number,
): PermissionRequestPost {
  const marked = withShortened(post, "lastWords");
  const budget = maxBytes - byteLength({ ...marked, lastWords: CUT_MARK });
  return { ...marked, lastWords: `${prefixWithin(lastWords, Math.max(0, budget))}${CUT_MARK}` };
}

/** Bytes of last words kept whole when the tool's input alone is too large and must be cut anyway. */
function lastWordsShare(maxBytes: number): number {
  return Math.floor(maxBytes / 8);
}

/** The ask with its last words within `budget` bytes: whole when they fit, else their start, marked. */
function lastWordsWithin(post: PermissionRequestPost, budget: number): PermissionRequestPost {
  if (!post.lastWords || byteLength(post.lastWords) <= budget) return post;
  return {
    ...withShortened(post, "lastWords"),
    lastWords: `${prefixWithin(post.lastWords, budget)}${CUT_MARK}`,
  };
}

/**
 * The JSON body for `POST /permission-requests`, within the daemon's body limit. An ask too large is shortened,
 * never refused as a whole: first the agent's last words (keeping their start); if the tool's input alone is too
 * large, its longest strings, all cut to one length, the largest that fits (the last words then keep up to an
 * eighth of the limit). Each cut text ends with `CUT_MARK` and `shortened` names what was cut, so the call says so.
 * `undefined` when even that cannot fit (an input of countless keys).
 */
export function permissionRequestBody(
  post: PermissionRequestPost,
  maxBytes = REPORT_BODY_MAX_BYTES,
): string | undefined {
  if (byteLength(post) <= maxBytes) return JSON.stringify(post);
  if (post.lastWords && byteLength({ ...withShortened(post, "lastWords"), lastWords: CUT_MARK }) <= maxBytes)
    return JSON.stringify(cutLastWords(post, post.lastWords, maxBytes));

  // The tool's input alone is too large: keep the start of the last words (most of them, usually all), cut the input.
  const ask = withShortened(lastWordsWithin(post, lastWordsShare(maxBytes)), "toolInput");
  const capped = (maxChars: number) => ({ ...ask, toolInput: capStrings(ask.toolInput, maxChars) });
  if (byteLength(capped(0)) > maxBytes) return undefined;
  // The body grows with the cap: bisect for the largest cap that still fits.
  let fitting = 0;
  let tooLarge = longestString(ask.toolInput);
  while (tooLarge - fitting > 1) {
    const middle = Math.floor((fitting + tooLarge) / 2);
    if (byteLength(capped(middle)) <= maxBytes) fitting = middle;
    else tooLarge = middle;
  }
  return JSON.stringify(capped(fitting));
}
