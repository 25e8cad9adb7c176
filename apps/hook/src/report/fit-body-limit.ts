import type { ReportRequest } from "@ringback/protocol";
import { REPORT_BODY_MAX_BYTES } from "../daemon-call/protocol-constants.js";

/** Appended to a reply cut to fit the daemon's body limit, so the listener knows it was cut. */
export const TRUNCATION_MARK = "\n\n[… cut by ringback-hook: the reply was longer than a report may be]";

const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]);

/** Bytes one code point takes inside a JSON string as `JSON.stringify` writes it. */
function jsonBytes(codePoint: number): number {
  if (SHORT_ESCAPES.has(codePoint)) return 2;
  if (codePoint < 0x20) return 6;
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 6;
  return codePoint < 0x10000 ? 3 : 4;
}

/** The longest start of `text` whose JSON form fits in `budget` bytes; never splits a surrogate pair. */
export function prefixWithin(text: string, budget: number): string {
  let used = 0;
  let end = 0;
  for (const character of text) {
    used += jsonBytes(character.codePointAt(0) as number);
    if (used > budget) break;
    end += character.length;
  }
  return text.slice(0, end);
}

/**
 * The JSON body for `POST /report`. A reply too long for the daemon's limit is cut (keeping its start)
 * rather than refused as a whole: a shortened call beats a missed one.
 */
export function reportBody(report: ReportRequest, maxBytes = REPORT_BODY_MAX_BYTES): string {
  const body = JSON.stringify(report);
  if (Buffer.byteLength(body) <= maxBytes) return body;
  const overhead = Buffer.byteLength(JSON.stringify({ ...report, text: TRUNCATION_MARK }));
  const text = prefixWithin(report.text, Math.max(0, maxBytes - overhead));
  return JSON.stringify({ ...report, text: text + TRUNCATION_MARK });
}
