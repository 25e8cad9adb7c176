import { describe, expect, it } from "vitest";
import { parseHeader, scanToml, tomlBasicString } from "./toml-tables.js";

describe("parseHeader", () => {
  it("reads bare, basic and literal keys, with escapes", () => {
    expect(parseHeader('[hooks.state."/a \\"b\\"/hooks.json:stop:0:0"]')).toEqual({
      key: ["hooks", "state", '/a "b"/hooks.json:stop:0:0'],
      isArrayTable: false,
    });
    expect(parseHeader("[ a . 'c:\\x' ]  # note")).toEqual({ key: ["a", "c:\\x"], isArrayTable: false });
    expect(parseHeader("[[hooks.Stop]]")).toEqual({ key: ["hooks", "Stop"], isArrayTable: true });
  });

  it("rejects lines that are not headers", () => {
    expect(parseHeader('["a", "b"]')).toBeUndefined();
    expect(parseHeader("[1, 2],")).toBeUndefined();
  });
});

describe("scanToml", () => {
  it("does not take lines inside multi-line strings or arrays for headers", () => {
    const layout = scanToml(
      'a = """\n[not.a.header]\n"""\nb = [\n  "x",\n]\n[real]\nc = \'\'\'\n[nope]\n\'\'\'\n',
    );
    expect(layout.tables.map((table) => table.key)).toEqual([["real"]]);
    expect(layout.kinds).toEqual([
      "key-value",
      "continuation",
      "continuation",
      "key-value",
      "continuation",
      "continuation",
      "header",
      "key-value",
      "continuation",
      "continuation",
    ]);
  });

  it("gives each table its header, one blank line before it, and its key/value lines", () => {
    const layout = scanToml("x = 1\n\n[one]\na = 1\n\n# about two\n[two]\nb = [\n 1,\n]\n");
    expect(layout.tables).toEqual([
      { key: ["one"], isArrayTable: false, headerLine: 2, startLine: 1, endLine: 4 },
      { key: ["two"], isArrayTable: false, headerLine: 6, startLine: 6, endLine: 10 },
    ]);
  });

  it("keeps CRLF line endings inside each line", () => {
    expect(scanToml("[a]\r\nb = 1\r\n").lines).toEqual(["[a]\r\n", "b = 1\r\n"]);
  });
});

it("tomlBasicString escapes quotes, backslashes and control characters", () => {
  expect(tomlBasicString('C:\\x "y"\n')).toBe('"C:\\\\x \\"y\\"\\u000a"');
});
