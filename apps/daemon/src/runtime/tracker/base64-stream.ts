import { RingbackError } from "@ringback/protocol";

const EMPTY = Buffer.alloc(0);
/** Standard and URL-safe alphabets, and padding. */
const NOT_BASE64 = /[^A-Za-z0-9+/=_-]/;
const WHITESPACE = /[\t\n\r ]+/g;
const ONLY_PADDING = /^=*$/;

/**
 * Decodes base64 that arrives in pieces, without holding the whole text: each `push` returns the bytes of
 * the complete 4-character groups so far and keeps the rest. Whitespace is skipped; anything else outside
 * the alphabet, or data after the padding, is `invalid_dispatch` (the upload is not an image).
 */
export class Base64Stream {
  #carry = "";
  #isPadded = false;

  push(text: string): Buffer {
    let clean = text;
    if (NOT_BASE64.test(clean)) {
      clean = clean.replace(WHITESPACE, "");
      if (NOT_BASE64.test(clean)) throw notBase64();
    }
    if (clean === "") return EMPTY;
    if (this.#isPadded && !ONLY_PADDING.test(clean)) throw notBase64();
    const all = this.#carry + clean;
    const firstPad = all.indexOf("=");
    if (firstPad >= 0) {
      // Padding may only fill the last one or two places of a group, and nothing but padding may follow.
      if (firstPad % 4 < 2 || !ONLY_PADDING.test(all.slice(firstPad))) throw notBase64();
      this.#isPadded = true;
    }
    const usable = all.length - (all.length % 4);
    this.#carry = all.slice(usable);
    return usable === 0 ? EMPTY : Buffer.from(all.slice(0, usable), "base64");
  }

  /** The bytes of an unpadded last group. */
  end(): Buffer {
    const rest = this.#carry;
    this.#carry = "";
    if (rest === "") return EMPTY;
    if (rest.replace(/=+$/, "").length < 2) throw notBase64();
    return Buffer.from(rest, "base64");
  }
}

function notBase64(): RingbackError {
  return new RingbackError("invalid_dispatch", "The upload's data is not base64: it is not an image.");
}
