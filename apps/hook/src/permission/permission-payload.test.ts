import { describe, expect, it } from "vitest";
import { permissionPayloadFrom } from "./permission-payload.js";

const claude = {
  session_id: "s",
  transcript_path: "/t.jsonl",
  cwd: "/w",
  permission_mode: "default",
  hook_event_name: "PermissionRequest",
  tool_name: "Bash",
  tool_input: { command: "ls" },
  tool_use_id: "toolu_1",
  permission_suggestions: [],
};

describe("permissionPayloadFrom", () => {
  it("keeps the fields the hook uses, and ignores the others", () => {
    expect(permissionPayloadFrom(claude)).toEqual({
      ok: true,
      payload: {
        session_id: "s",
        transcript_path: "/t.jsonl",
        cwd: "/w",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command: "ls" },
        tool_use_id: "toolu_1",
      },
    });
  });

  it("takes Codex's null transcript_path and its turn_id", () => {
    const codex = { ...claude, tool_use_id: undefined, transcript_path: null, turn_id: "t1" };
    expect(permissionPayloadFrom(codex)).toMatchObject({
      ok: true,
      payload: { transcript_path: null, turn_id: "t1" },
    });
  });

  it("refuses a payload without its session, tool or input, or with fields of the wrong type", () => {
    expect(permissionPayloadFrom({ ...claude, session_id: "" })).toEqual({
      ok: false,
      reason: "session_id is missing",
    });
    expect(permissionPayloadFrom({ ...claude, tool_name: 3 })).toEqual({
      ok: false,
      reason: "tool_name is missing",
    });
    expect(permissionPayloadFrom({ ...claude, tool_input: undefined })).toEqual({
      ok: false,
      reason: "tool_input is missing",
    });
    expect(permissionPayloadFrom({ ...claude, cwd: null })).toEqual({ ok: false, reason: "cwd is missing" });
    expect(permissionPayloadFrom({ ...claude, tool_use_id: 7 })).toEqual({
      ok: false,
      reason: "tool_use_id is not a string",
    });
  });
});
