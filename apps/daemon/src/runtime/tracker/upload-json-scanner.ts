import { RingbackError } from "@ringback/protocol";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COLON = 0x3a;
const COMMA = 0x2c;
/** Longer than `null`, the only literal accepted: enough to tell it from anything else. */
const LITERAL_MAX_CHARS = 8;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

type State =
  | "start"
  | "key-or-end"
  | "key"
  | "colon"
  | "value"
  | "string"
  | "literal"
  | "comma-or-end"
  | "key-after-comma"
  | "end";

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function invalid(message: string): RingbackError {
  return new RingbackError("invalid_request", message);
}

export interface UploadJsonScannerOptions {
  /** The one field whose string is handed on in pieces instead of being kept. */
  streamedField: string;
  onStreamed(text: string): void;
  /** Any other string longer than this is refused (they are names and ids). */
  maxFieldChars: number;
}

/**
 * Reads a JSON object of string (or null) fields as it arrives, chunk by chunk, keeping every field but
 * one: the streamed field's text goes to `onStreamed` piece by piece, so a body of many megabytes is never
 * held in memory. Nested values are refused; this is the shape of an upload body and nothing more.
 */
export class UploadJsonScanner {
  readonly fields = new Map<string, string | null>();
  #state: State = "start";
  #key = "";
  #isKey = false;
  #isStreamed = false;
  #hasStreamed = false;
  #text = "";
  #decoder = new TextDecoder("utf-8", { fatal: true });
  /** null: not in an escape; "": just after the backslash; "u…": collecting a \u escape. */
  #escape: string | null = null;
  #literal = "";
  readonly #options: UploadJsonScannerOptions;

  constructor(options: UploadJsonScannerOptions) {
    this.#options = options;
  }

  /** True once the streamed field was seen (it may be empty). */
  get hasStreamed(): boolean {
    return this.#hasStreamed;
  }

  push(chunk: Uint8Array): void {
    let index = 0;
    while (index < chunk.length) {
      if (this.#state === "key" || this.#state === "string") {
        index = this.#readString(chunk, index);
        continue;
      }
      const byte = chunk[index] as number;
      index += 1;
      this.#structural(byte);
    }
  }

  /** The body ended: it must have been one complete object. */
  end(): void {
    if (this.#state === "literal") this.#endLiteral();
    if (this.#state !== "end") throw invalid("The body is not a complete JSON object.");
  }

  #structural(byte: number): void {
    if (this.#state === "literal") {
      if (!isWhitespace(byte) && byte !== COMMA && byte !== CLOSE_BRACE) {
        this.#literal += String.fromCharCode(byte);
        if (this.#literal.length > LITERAL_MAX_CHARS) throw invalid(`${this.#key}: must be a string`);
        return;
      }
      this.#endLiteral();
    }
    if (isWhitespace(byte)) return;
    switch (this.#state) {
      case "start":
        if (byte !== OPEN_BRACE) throw invalid("The body must be a JSON object.");
        this.#state = "key-or-end";
        return;
      case "key-or-end":
      case "key-after-comma":
        if (byte === CLOSE_BRACE && this.#state === "key-or-end") {
          this.#state = "end";
          return;
        }
        if (byte !== QUOTE) throw invalid("Expected a field name in the body.");
        this.#startString(true);
        return;
      case "colon":
        if (byte !== COLON) throw invalid("Expected ':' after a field name.");
        this.#state = "value";
        return;
      case "value":
        if (byte === QUOTE) {
          this.#startString(false);
          return;
        }
        if (byte === OPEN_BRACE || byte === 0x5b) throw invalid(`${this.#key}: must be a string`);
        this.#literal = String.fromCharCode(byte);
        this.#state = "literal";
        return;
      case "comma-or-end":
        if (byte === COMMA) this.#state = "key-after-comma";
        else if (byte === CLOSE_BRACE) this.#state = "end";
        else throw invalid("Expected ',' or '}' in the body.");
        return;
      default:
        throw invalid("Unexpected content after the JSON object.");
    }
  }

  #startString(isKey: boolean): void {
    this.#isKey = isKey;
    this.#isStreamed = !isKey && this.#key === this.#options.streamedField;
    if (this.#isStreamed) {
      if (this.#hasStreamed) throw invalid(`${this.#key}: given twice`);
      this.#hasStreamed = true;
    }
    this.#text = "";
    this.#decoder = new TextDecoder("utf-8", { fatal: true });
    this.#state = this.#isKey ? "key" : "string";
  }

  /** Consumes string content from `index`; returns where it stopped. */
  #readString(chunk: Uint8Array, index: number): number {
    if (this.#escape !== null) return this.#readEscape(chunk, index);
    const quote = chunk.indexOf(QUOTE, index);
    const backslash = chunk.indexOf(BACKSLASH, index);
    const stop = Math.min(quote < 0 ? chunk.length : quote, backslash < 0 ? chunk.length : backslash);
    if (stop > index) this.#appendBytes(chunk.subarray(index, stop));
    if (stop === chunk.length) return stop;
    if (stop === backslash) {
      this.#escape = "";
      return stop + 1;
    }
    this.#endString();
    return stop + 1;
  }

  #readEscape(chunk: Uint8Array, index: number): number {
    const character = String.fromCharCode(chunk[index] as number);
    if (this.#escape === "") {
      if (character === "u") {
        this.#escape = "u";
        return index + 1;
      }
      const replacement = SIMPLE_ESCAPES[character];
      if (replacement === undefined) throw invalid("The body has an invalid escape in a string.");
      this.#escape = null;
      this.#appendText(replacement);
      return index + 1;
    }
    const sequence = this.#escape + character;
    this.#escape = sequence;
    if (sequence.length === 5) {
      if (!/^u[0-9a-f]{4}$/i.test(sequence)) throw invalid("The body has an invalid \\u escape.");
      this.#escape = null;
      this.#appendText(String.fromCharCode(Number.parseInt(sequence.slice(1), 16)));
    }
    return index + 1;
  }

  #appendBytes(bytes: Uint8Array): void {
    if (this.#isStreamed) {
      // Base64 is ASCII; any other byte reaches the decoder as a character it refuses.
      this.#options.onStreamed(
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"),
      );
      return;
    }
    let text: string;
    try {
      text = this.#decoder.decode(bytes, { stream: true });
    } catch {
      throw invalid("The body is not valid UTF-8.");
    }
    this.#appendText(text);
  }

  #appendText(text: string): void {
    if (this.#isStreamed) {
      this.#options.onStreamed(text);
      return;
    }
    this.#text += text;
    if (this.#text.length > this.#options.maxFieldChars) {
      throw invalid(`${this.#isKey ? "A field name" : this.#key} is too long.`);
    }
  }

  #endString(): void {
    if (!this.#isStreamed) {
      try {
        this.#text += this.#decoder.decode();
      } catch {
        throw invalid("The body is not valid UTF-8.");
      }
    }
    if (this.#isKey) {
      this.#key = this.#text;
      this.#state = "colon";
    } else {
      if (!this.#isStreamed) this.fields.set(this.#key, this.#text);
      this.#state = "comma-or-end";
    }
    this.#text = "";
  }

  #endLiteral(): void {
    if (this.#literal !== "null") throw invalid(`${this.#key}: must be a string`);
    if (this.#key === this.#options.streamedField) throw invalid(`${this.#key}: must be a string`);
    this.fields.set(this.#key, null);
    this.#literal = "";
    this.#state = "comma-or-end";
  }
}
