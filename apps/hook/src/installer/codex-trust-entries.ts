import { CODEX_EVENT_LABELS } from "./codex-trust-hash.js";
import type { HookPosition } from "./event-hooks.js";
import type { HookEventName } from "./hook-command.js";
import { InstallerError } from "./installer-error.js";
import { lineContent, scanToml, tomlBasicString } from "./toml-tables.js";

/** Codex's key for a hooks.json handler's state: `<abs path of hooks.json>:<event label>:<group>:<handler>`. */
export function codexTrustKey(
  hooksJsonPath: string,
  position: HookPosition,
  event: HookEventName = "Stop",
): string {
  return `${hooksJsonPath}:${CODEX_EVENT_LABELS[event]}:${position.group}:${position.handler}`;
}

/** What changed in hooks.json for one event, in the terms Codex's trust records are keyed by. */
export interface CodexTrustEdit {
  hooksJsonPath: string;
  event: HookEventName;
  /** Where our handlers were: their records go. */
  removed: HookPosition[];
  /** Other handlers that changed place: their records follow them, so the user's trust in them holds. */
  moved: { from: HookPosition; to: HookPosition }[];
  /** Our handler's place and hash after the edit. */
  added?: { position: HookPosition; trustedHash: string };
}

const STATE_TABLE = ["hooks", "state"];

function stateKeyOf(key: string[] | undefined): string | undefined {
  return key?.length === 3 && isSameKey(key.slice(0, 2), STATE_TABLE) ? key[2] : undefined;
}

function isSameKey(left: string[] | undefined, right: readonly string[]): boolean {
  return (
    left !== undefined && left.length === right.length && left.every((part, index) => part === right[index])
  );
}

/**
 * Refuses a config.toml that keeps hook state in a form this installer does not edit (inline tables, dotted
 * keys): adding a `[hooks.state."…"]` table there could define a key twice and stop Codex from starting.
 */
function assertEditable(layout: ReturnType<typeof scanToml>, configPath: string): void {
  for (const [index, kind] of layout.kinds.entries()) {
    if (kind !== "key-value") continue;
    const key = lineContent(layout.lines[index] as string).trim();
    const table = layout.tableKeys[index];
    const definesState =
      (isSameKey(table, []) && /^hooks\s*[.=]/.test(key)) ||
      (isSameKey(table, ["hooks"]) && /^state\s*[.=]/.test(key)) ||
      (isSameKey(table, STATE_TABLE) && !key.startsWith("#"));
    if (definesState) {
      throw new InstallerError(
        `${configPath} line ${index + 1} sets Codex hook state inline; the installer only edits ` +
          `[hooks.state."…"] tables. Move it into such a table, or trust the hook in Codex with /hooks.`,
      );
    }
  }
}

/**
 * Applies `edit` to the text of `$CODEX_HOME/config.toml`: removes the `[hooks.state."…"]` tables of our
 * old positions (and stale ones where a moved handler now stands), renames those of moved handlers, and
 * appends ours. Every other byte stays as it was.
 */
export function editCodexTrust(text: string, edit: CodexTrustEdit, configPath: string): string {
  const layout = scanToml(text);
  assertEditable(layout, configPath);
  const keyOf = (position: HookPosition) => codexTrustKey(edit.hooksJsonPath, position, edit.event);
  const renamed = new Map(edit.moved.map(({ from, to }) => [keyOf(from), keyOf(to)]));
  const stale = new Set([...edit.removed.map(keyOf), ...edit.moved.map(({ to }) => keyOf(to))]);
  if (edit.added) stale.add(keyOf(edit.added.position));

  const lines = [...layout.lines];
  for (const table of [...layout.tables].reverse()) {
    const stateKey = table.isArrayTable ? undefined : stateKeyOf(table.key);
    if (stateKey === undefined) continue;
    const newKey = renamed.get(stateKey);
    if (newKey !== undefined) {
      const ending = /\r?\n$/.exec(lines[table.headerLine] as string)?.[0] ?? "";
      lines[table.headerLine] = `${stateHeader(newKey)}${ending}`;
    } else if (stale.has(stateKey)) {
      lines.splice(table.startLine, table.endLine - table.startLine);
    }
  }
  let result = lines.join("");
  if (edit.added) {
    if (result !== "" && !result.endsWith("\n")) result += "\n";
    if (result !== "") result += "\n";
    result += `${stateHeader(keyOf(edit.added.position))}\ntrusted_hash = ${tomlBasicString(edit.added.trustedHash)}\n`;
  }
  return result;
}

function stateHeader(key: string): string {
  return `[hooks.state.${tomlBasicString(key)}]`;
}
