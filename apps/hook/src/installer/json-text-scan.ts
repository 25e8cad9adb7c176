/** Where one value sits in a JSON text, and for an object or array, where each of its members sits. */
export interface JsonNode {
  start: number;
  /** Just past the value's last character. */
  end: number;
  kind: "object" | "array" | "scalar";
  /** Members in order: an object's with their key, an array's without. */
  members: JsonMember[];
}

export interface JsonMember {
  key: string | undefined;
  /** Where the member starts: its key for an object member, its value for an array element. */
  start: number;
  value: JsonNode;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

/**
 * Finds where every value of a JSON text sits, so an edit can touch the bytes of one member and keep all the others.
 * The text must already parse with `JSON.parse`: this scan only locates what that parse accepted.
 */
export function scanJson(text: string): JsonNode {
  let position = 0;
  const skipWhitespace = () => {
    while (position < text.length && WHITESPACE.has(text.charAt(position))) position += 1;
  };
  const readString = (): string => {
    const start = position;
    position += 1;
    while (text.charAt(position) !== '"') position += text.charAt(position) === "\\" ? 2 : 1;
    position += 1;
    return JSON.parse(text.slice(start, position)) as string;
  };
  const readValue = (): JsonNode => {
    skipWhitespace();
    const start = position;
    const opener = text.charAt(position);
    if (opener !== "{" && opener !== "[") {
      if (opener === '"') readString();
      else while (position < text.length && !/[\s,\]}]/.test(text.charAt(position))) position += 1;
      return { start, end: position, kind: "scalar", members: [] };
    }
    const isObject = opener === "{";
    const closer = isObject ? "}" : "]";
    const members: JsonMember[] = [];
    position += 1;
    skipWhitespace();
    while (text.charAt(position) !== closer) {
      const memberStart = position;
      let key: string | undefined;
      if (isObject) {
        key = readString();
        skipWhitespace();
        position += 1; // the colon
      }
      const value = readValue();
      members.push({ key, start: memberStart, value });
      skipWhitespace();
      if (text.charAt(position) === ",") position += 1;
      skipWhitespace();
    }
    position += 1;
    return { start, end: position, kind: isObject ? "object" : "array", members };
  };
  return readValue();
}
