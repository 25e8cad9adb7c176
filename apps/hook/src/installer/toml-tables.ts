/**
 * Just enough of TOML to find table headers in a config.toml and edit single tables while keeping every
 * other byte: strings, multi-line strings, comments and multi-line arrays are stepped over, never parsed.
 */

type LineKind = "blank" | "comment" | "header" | "key-value" | "continuation";

interface TomlTable {
  /** The header's dotted key (`[hooks.state."x"]` -> ["hooks", "state", "x"]); `undefined` if unreadable. */
  key: string[] | undefined;
  isArrayTable: boolean;
  headerLine: number;
  /** First line of the table's own block: the header, or the one blank line before it. */
  startLine: number;
  /** Line index just past the table's last key/value line. */
  endLine: number;
}

export interface TomlLayout {
  /** The text's lines, each with its own line ending. */
  lines: string[];
  kinds: LineKind[];
  tables: TomlTable[];
  /** For each line, the key of the table it belongs to (`[]` before the first header). */
  tableKeys: (string[] | undefined)[];
}

interface ScanState {
  multiline: '"""' | "'''" | undefined;
  depth: number;
}

function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function lineContent(line: string): string {
  return line.replace(/\r?\n$/, "");
}

/** Finds the end of a basic (`"`) string starting at `start` (the opening quote); -1 when unterminated. */
function basicStringEnd(line: string, start: number): number {
  for (let index = start + 1; index < line.length; index++) {
    if (line[index] === "\\") index++;
    else if (line[index] === '"') return index;
  }
  return -1;
}

/** Advances the scan state over one key/value or continuation line. */
function scanValueLine(line: string, state: ScanState): void {
  let index = 0;
  while (index < line.length) {
    if (state.multiline) {
      const close = findMultilineClose(line, index, state.multiline);
      if (close === -1) return;
      state.multiline = undefined;
      index = close;
      continue;
    }
    const character = line[index];
    if (character === "#") return;
    if (character === '"' || character === "'") {
      const triple = character.repeat(3);
      if (line.startsWith(triple, index)) {
        state.multiline = triple as ScanState["multiline"];
        index += 3;
        continue;
      }
      const end = character === '"' ? basicStringEnd(line, index) : line.indexOf("'", index + 1);
      if (end === -1) return;
      index = end + 1;
      continue;
    }
    if (character === "[" || character === "{") state.depth++;
    if ((character === "]" || character === "}") && state.depth > 0) state.depth--;
    index++;
  }
}

/** Index just past the closing delimiter of a multi-line string, or -1 when it continues on the next line. */
function findMultilineClose(line: string, from: number, delimiter: string): number {
  for (let index = from; index < line.length; index++) {
    if (delimiter === '"""' && line[index] === "\\") {
      index++;
      continue;
    }
    if (line.startsWith(delimiter, index)) {
      let end = index + 3;
      // Up to two quotes right before the delimiter belong to the string.
      while (end < line.length && line[end] === delimiter[0] && end - index < 5) end++;
      return end;
    }
  }
  return -1;
}

const BASIC_ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  '"': '"',
  "\\": "\\",
};

function readBasicString(text: string, start: number): { value: string; end: number } | undefined {
  let value = "";
  for (let index = start + 1; index < text.length; index++) {
    const character = text[index] as string;
    if (character === '"') return { value, end: index + 1 };
    if (character !== "\\") {
      value += character;
      continue;
    }
    const escapeLetter = text[index + 1] ?? "";
    const hexLength = escapeLetter === "u" ? 4 : escapeLetter === "U" ? 8 : 0;
    if (hexLength > 0) {
      const hex = text.slice(index + 2, index + 2 + hexLength);
      if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== hexLength) return undefined;
      value += String.fromCodePoint(Number.parseInt(hex, 16));
      index += 1 + hexLength;
    } else if (escapeLetter in BASIC_ESCAPES) {
      value += BASIC_ESCAPES[escapeLetter];
      index++;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** Reads `[a."b".'c']` or `[[a.b]]`; `undefined` when the line is not a header this scanner understands. */
export function parseHeader(line: string): { key: string[]; isArrayTable: boolean } | undefined {
  const opening = /^\s*(\[\[?)/.exec(line);
  if (!opening) return undefined;
  const isArrayTable = opening[1] === "[[";
  const key: string[] = [];
  let index = opening[0].length;
  for (;;) {
    while (line[index] === " " || line[index] === "\t") index++;
    const character = line[index];
    if (character === '"') {
      const read = readBasicString(line, index);
      if (!read) return undefined;
      key.push(read.value);
      index = read.end;
    } else if (character === "'") {
      const end = line.indexOf("'", index + 1);
      if (end === -1) return undefined;
      key.push(line.slice(index + 1, end));
      index = end + 1;
    } else {
      const bare = /^[A-Za-z0-9_-]+/.exec(line.slice(index));
      if (!bare) return undefined;
      key.push(bare[0]);
      index += bare[0].length;
    }
    while (line[index] === " " || line[index] === "\t") index++;
    if (line[index] === ".") {
      index++;
      continue;
    }
    break;
  }
  const closing = isArrayTable ? "]]" : "]";
  if (!line.startsWith(closing, index)) return undefined;
  const rest = line.slice(index + closing.length).trim();
  return rest === "" || rest.startsWith("#") ? { key, isArrayTable } : undefined;
}

/** Classifies every line and finds every table. */
export function scanToml(text: string): TomlLayout {
  const lines = splitLines(text);
  const kinds: LineKind[] = [];
  const tableKeys: (string[] | undefined)[] = [];
  const headers: { line: number; key: string[] | undefined; isArrayTable: boolean }[] = [];
  const state: ScanState = { multiline: undefined, depth: 0 };
  let currentKey: string[] | undefined = [];
  for (const [index, rawLine] of lines.entries()) {
    const line = lineContent(rawLine);
    const trimmed = line.trim();
    let kind: LineKind;
    if (state.multiline || state.depth > 0) kind = "continuation";
    else if (trimmed === "") kind = "blank";
    else if (trimmed.startsWith("#")) kind = "comment";
    else if (trimmed.startsWith("[")) kind = "header";
    else kind = "key-value";
    if (kind === "header") {
      const header = parseHeader(line);
      currentKey = header?.key;
      headers.push({ line: index, key: header?.key, isArrayTable: header?.isArrayTable ?? false });
    } else if (kind === "key-value" || kind === "continuation") {
      scanValueLine(line, state);
    }
    kinds.push(kind);
    tableKeys.push(currentKey);
  }
  const tables = headers.map((header, position): TomlTable => {
    const nextHeader = headers[position + 1]?.line ?? lines.length;
    let endLine = header.line + 1;
    for (let index = header.line + 1; index < nextHeader; index++) {
      if (kinds[index] === "key-value" || kinds[index] === "continuation") endLine = index + 1;
    }
    const startLine = header.line > 0 && kinds[header.line - 1] === "blank" ? header.line - 1 : header.line;
    return {
      key: header.key,
      isArrayTable: header.isArrayTable,
      headerLine: header.line,
      startLine,
      endLine,
    };
  });
  return { lines, kinds, tables, tableKeys };
}

/** A TOML basic string: quotes, backslashes and control characters escaped. */
export function tomlBasicString(value: string): string {
  let escaped = "";
  for (const character of value) {
    const code = character.charCodeAt(0);
    if (character === "\\" || character === '"') escaped += `\\${character}`;
    else if (code < 0x20 || code === 0x7f) escaped += `\\u${code.toString(16).padStart(4, "0")}`;
    else escaped += character;
  }
  return `"${escaped}"`;
}
