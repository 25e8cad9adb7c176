import { type JsonMember, type JsonNode, scanJson } from "./json-text-scan.js";

/** How the file lays out what it holds, so a member we add looks like its neighbours. */
interface Layout {
  text: string;
  /** One level of indentation as the file writes it. */
  unit: string;
  /** Whether the file puts members on lines of their own. */
  isMultiline: boolean;
}

const DEFAULT_UNIT = "  ";

function isSame(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

function isShape(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The JSON `text` (which parses to `before`) changed to hold `after`, byte for byte the same wherever the two agree:
 * other keys keep their order, spacing and indentation, and only the members that differ are written anew, laid out
 * like their neighbours. An empty text becomes `after` with two-space indentation.
 */
export function editJsonText(text: string, before: unknown, after: unknown): string {
  if (text.trim() === "") return `${JSON.stringify(after, null, DEFAULT_UNIT)}\n`;
  const root = scanJson(text);
  const layout: Layout = {
    text,
    unit: /^([ \t]+)\S/m.exec(text)?.[1] ?? DEFAULT_UNIT,
    isMultiline: text.slice(root.start, root.end).includes("\n"),
  };
  return text.slice(0, root.start) + render(layout, root, before, after) + text.slice(root.end);
}

function render(layout: Layout, node: JsonNode, before: unknown, after: unknown): string {
  const original = layout.text.slice(node.start, node.end);
  if (isSame(before, after)) return original;
  if (node.kind === "object" && isShape(before) && isShape(after)) {
    const kept = node.members.filter(
      (member) => member.key !== undefined && Object.hasOwn(after, member.key),
    );
    const added = Object.keys(after).filter((key) => !Object.hasOwn(before, key));
    return renderContainer(layout, node, [
      ...kept.map((member) => keptPiece(member, before[member.key as string], after[member.key as string])),
      ...added.map((key) => ({ key, value: after[key] })),
    ]);
  }
  if (node.kind === "array" && Array.isArray(before) && Array.isArray(after)) {
    if (before.length === after.length) {
      return renderContainer(
        layout,
        node,
        node.members.map((member, index) => keptPiece(member, before[index], after[index])),
      );
    }
    return renderContainer(layout, node, matchElements(node.members, before, after));
  }
  return serialize(layout, after, indentationAt(layout.text, node.start));
}

/** A member of the new container: one of the old ones (edited inside) or a new one. */
type Piece = { member: JsonMember; before: unknown; after: unknown } | { key?: string; value: unknown };

function keptPiece(member: JsonMember, before: unknown, after: unknown): Piece {
  return { member, before, after };
}

/** The new array's elements: the longest run kept in order, the rest added where they stand. */
function matchElements(members: JsonMember[], before: unknown[], after: unknown[]): Piece[] {
  const longest: number[][] = Array.from({ length: before.length + 1 }, () =>
    new Array<number>(after.length + 1).fill(0),
  );
  for (let i = before.length - 1; i >= 0; i -= 1) {
    for (let j = after.length - 1; j >= 0; j -= 1) {
      const row = longest[i] as number[];
      const next = longest[i + 1] as number[];
      row[j] = isSame(before[i], after[j])
        ? (next[j + 1] as number) + 1
        : Math.max(next[j] as number, row[j + 1] as number);
    }
  }
  const pieces: Piece[] = [];
  let i = 0;
  let j = 0;
  while (j < after.length) {
    if (i < before.length && isSame(before[i], after[j])) {
      pieces.push(keptPiece(members[i] as JsonMember, before[i], after[j]));
      i += 1;
      j += 1;
    } else if (i < before.length && (longest[i + 1]?.[j] ?? 0) >= (longest[i]?.[j + 1] ?? 0)) {
      i += 1;
    } else {
      pieces.push({ value: after[j] });
      j += 1;
    }
  }
  return pieces;
}

/** The container with these members: separators between two members that stood together are kept as they were. */
function renderContainer(layout: Layout, node: JsonNode, pieces: Piece[]): string {
  const { text } = layout;
  const [opener, closer] = node.kind === "object" ? ["{", "}"] : ["[", "]"];
  if (pieces.length === 0) return `${opener}${closer}`;
  const first = node.members[0];
  const last = node.members.at(-1);
  const outer = indentationAt(text, node.start);
  const memberIndent = first ? indentationAt(text, first.start) : `${outer}${layout.unit}`;
  const isMultiline = first ? text.slice(node.start, first.start).includes("\n") : layout.isMultiline;
  const leading = first ? text.slice(node.start + 1, first.start) : isMultiline ? `\n${memberIndent}` : "";
  const trailing = last ? text.slice(last.value.end, node.end - 1) : isMultiline ? `\n${outer}` : "";
  const separator = isMultiline ? `,\n${memberIndent}` : ", ";
  let result = opener + leading;
  let previous: JsonMember | undefined;
  for (const [index, piece] of pieces.entries()) {
    const member = "member" in piece ? piece.member : undefined;
    if (index > 0) {
      const isNeighbour =
        member && previous && node.members.indexOf(member) === node.members.indexOf(previous) + 1;
      result += isNeighbour && previous ? text.slice(previous.value.end, member.start) : separator;
    }
    if ("member" in piece) {
      result +=
        text.slice(piece.member.start, piece.member.value.start) +
        render(layout, piece.member.value, piece.before, piece.after);
    } else {
      const key = piece.key === undefined ? "" : `${JSON.stringify(piece.key)}: `;
      result += key + serialize({ ...layout, isMultiline }, piece.value, memberIndent);
    }
    previous = member;
  }
  return result + trailing + closer;
}

function serialize(layout: Layout, value: unknown, indentation: string): string {
  if (!layout.isMultiline) return JSON.stringify(value);
  return JSON.stringify(value, null, layout.unit).replaceAll("\n", `\n${indentation}`);
}

/** The spaces that start the line `position` is on. */
function indentationAt(text: string, position: number): string {
  const lineStart = text.lastIndexOf("\n", position - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, position))?.[0] ?? "";
}
