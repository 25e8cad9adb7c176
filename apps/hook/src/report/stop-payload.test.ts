import { AgentCompletionPayload } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { parseStopPayload } from "./stop-payload.js";

describe("parseStopPayload", () => {
  it("accepts what protocol's AgentCompletionPayload accepts, keeping the fields the hook uses unchanged", () => {
    const raw = {
      session_id: "s",
      cwd: "/w",
      transcript_path: null,
      stop_hook_active: false,
      last_assistant_message: "done",
      prompt_id: "p",
      hook_event_name: "Stop",
      background_tasks: [],
    };
    const parsed = parseStopPayload(JSON.stringify(raw));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(AgentCompletionPayload.parse(raw)).toMatchObject(parsed.payload);
  });

  it.each([
    ["not JSON", "{"],
    ["an array", "[]"],
    ["an empty session_id", '{"session_id":"","cwd":"/"}'],
    ["a numeric cwd", '{"session_id":"s","cwd":1}'],
    ["a non-string last message", '{"session_id":"s","cwd":"/","last_assistant_message":5}'],
  ])("refuses %s, as protocol's schema does", (_name, text) => {
    expect(parseStopPayload(text).ok).toBe(false);
    let schemaAccepts = true;
    try {
      AgentCompletionPayload.parse(JSON.parse(text));
    } catch {
      schemaAccepts = false;
    }
    expect(schemaAccepts).toBe(false);
  });
});
