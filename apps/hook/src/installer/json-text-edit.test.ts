import { describe, expect, it } from "vitest";
import { editJsonText } from "./json-text-edit.js";

function edit(text: string, change: (document: Record<string, unknown>) => Record<string, unknown>): string {
  const before = JSON.parse(text) as Record<string, unknown>;
  const after = change(structuredClone(before));
  const edited = editJsonText(text, before, after);
  expect(JSON.parse(edited)).toEqual(after);
  return edited;
}

const SIX_LINES = `{
    "model": "opus",
    "permissions": {"allow": ["Bash(ls)"], "deny": []},
    "env": { "A": "1" },
    "theme": "dark"
}
`;

describe("editJsonText", () => {
  it("adds a member at the end in the file's own indentation and keeps every other byte", () => {
    const edited = edit(SIX_LINES, (document) => ({ ...document, hooks: { Stop: [{ hooks: [] }] } }));
    expect(edited).toBe(`{
    "model": "opus",
    "permissions": {"allow": ["Bash(ls)"], "deny": []},
    "env": { "A": "1" },
    "theme": "dark",
    "hooks": {
        "Stop": [
            {
                "hooks": []
            }
        ]
    }
}
`);
  });

  it("taking the member out again gives back the very same text", () => {
    const added = edit(SIX_LINES, (document) => ({ ...document, hooks: { Stop: [] } }));
    const removed = edit(added, ({ hooks: _hooks, ...rest }) => rest);
    expect(removed).toBe(SIX_LINES);
  });

  it("replaces one value inside an array without touching its neighbours", () => {
    const text = '{\n  "hooks": {"Stop": [ {"command": "mine"}, {"command": "old ringback"} ]}\n}';
    const edited = edit(text, (document) => {
      ((document.hooks as { Stop: { command: string }[] }).Stop[1] as { command: string }).command = "new";
      return document;
    });
    expect(edited).toBe('{\n  "hooks": {"Stop": [ {"command": "mine"}, {"command": "new"} ]}\n}');
  });

  it("removes an element from the middle of an array and keeps the separators of the rest", () => {
    const text = '[\n  1,\n  {"ours": true},\n  3\n]';
    const before = JSON.parse(text);
    expect(editJsonText(text, before, [1, 3])).toBe("[\n  1,\n  3\n]");
  });

  it("fills an empty object and writes a missing file with two spaces", () => {
    expect(edit('{ "hooks": {} }', () => ({ hooks: { Stop: [] } }))).toBe('{ "hooks": {"Stop": []} }');
    expect(editJsonText("", {}, { a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });
});
