import type { PermissionRequestPost } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { CUT_MARK, permissionRequestBody } from "./fit-permission-limit.js";

const ask: PermissionRequestPost = {
  agent: "claude-code",
  sessionId: "s",
  cwd: "/w",
  toolName: "Bash",
  toolInput: { command: "ls", description: "List files" },
  lastWords: "Let me look.",
  shortened: [],
};

const parsed = (body: string | undefined) => JSON.parse(body ?? "null") as PermissionRequestPost;

describe("permissionRequestBody", () => {
  it("sends an ask that fits as it is", () => {
    expect(permissionRequestBody(ask, 1000)).toBe(JSON.stringify(ask));
  });

  it("cuts the last words first, keeping their start, and says so", () => {
    const long = { ...ask, lastWords: `Start. ${"é".repeat(2000)}` };
    const body = permissionRequestBody(long, 1000);
    expect(Buffer.byteLength(body ?? "")).toBeLessThanOrEqual(1000);
    const fitted = parsed(body);
    expect(fitted.shortened).toEqual(["lastWords"]);
    expect(fitted.lastWords).toMatch(/^Start\. é+ \[… cut by ringback-hook\]$/);
    expect(fitted.toolInput).toEqual(ask.toolInput);
    // The cut leaves no room unused beyond one character.
    expect(Buffer.byteLength(body ?? "")).toBeGreaterThan(1000 - 3);
  });

  it("cuts the longest strings of a tool input too large alone, to one length, keeping the shape", () => {
    const input = {
      file_path: "/w/a.txt",
      content: "a".repeat(5000),
      edits: [{ old_string: "b".repeat(3000), new_string: "short" }],
      replace_all: false,
    };
    const body = permissionRequestBody({ ...ask, toolInput: input }, 2000);
    expect(Buffer.byteLength(body ?? "")).toBeLessThanOrEqual(2000);
    const fitted = parsed(body);
    expect(fitted.shortened).toEqual(["toolInput"]);
    expect(fitted.lastWords).toBe("Let me look.");
    const cut = fitted.toolInput as typeof input;
    expect(cut.file_path).toBe("/w/a.txt");
    expect(cut.replace_all).toBe(false);
    expect(cut.edits[0]?.new_string).toBe("short");
    expect(cut.content.endsWith(CUT_MARK)).toBe(true);
    expect(cut.edits[0]?.old_string.endsWith(CUT_MARK)).toBe(true);
    expect(cut.content.length).toBe(cut.edits[0]?.old_string.length);
  });

  it("cuts both when the last words are long and the tool input is too large alone", () => {
    const body = permissionRequestBody(
      { ...ask, lastWords: "w".repeat(10_000), toolInput: { command: "c".repeat(10_000) } },
      4000,
    );
    expect(Buffer.byteLength(body ?? "")).toBeLessThanOrEqual(4000);
    const fitted = parsed(body);
    expect(fitted.shortened).toEqual(["lastWords", "toolInput"]);
    expect(fitted.lastWords).toMatch(/^w+ \[… cut by ringback-hook\]$/);
    expect((fitted.toolInput as { command: string }).command).toMatch(/^c+ \[… cut by ringback-hook\]$/);
  });

  it("never splits a character made of two UTF-16 units", () => {
    const body = permissionRequestBody({ ...ask, toolInput: { command: "😀".repeat(3000) } }, 2000);
    const command = (parsed(body).toolInput as { command: string }).command;
    expect(command.slice(0, -CUT_MARK.length)).toMatch(/^(😀)+$/u);
  });

  it("gives up on an input that cannot fit however its strings are cut", () => {
    const countless = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`key${index}`, index]));
    expect(permissionRequestBody({ ...ask, toolInput: countless }, 1000)).toBeUndefined();
  });
});
