import { appendFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { claudeCodeAdapter } from "../agent/payload-claude-code.js";
import { codexAdapter } from "../agent/payload-codex.js";
import { buildPermissionRequest } from "./build-permission-request.js";
import type { PermissionPayload } from "./permission-payload.js";

const dirs: TemporaryDirectory[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => dir.remove()));
});

async function transcript(records: unknown[]): Promise<string> {
  const dir = await makeTemporaryDirectory("ringback-last-words-");
  dirs.push(dir);
  const path = join(dir.path, "t.jsonl");
  await writeFile(path, `${records.map((record) => JSON.stringify(record)).join("\n")}\n`);
  return path;
}

const NO_DEADLINE = Number.POSITIVE_INFINITY;

const claude = {
  prompt: (text: string) => ({ type: "user", message: { role: "user", content: text } }),
  text: (text: string) => ({ type: "assistant", message: { content: [{ type: "text", text }] } }),
  toolUse: () => ({
    type: "assistant",
    message: { content: [{ type: "tool_use", id: "t", name: "Bash", input: {} }] },
  }),
  toolResult: () => ({
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] },
  }),
};

const codex = {
  prompt: (text: string) => ({
    type: "response_item",
    payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
  }),
  text: (text: string) => ({
    type: "response_item",
    payload: { type: "message", role: "assistant", content: [{ type: "output_text", text }] },
  }),
  call: () => ({ type: "response_item", payload: { type: "function_call", name: "shell", arguments: "{}" } }),
  output: () => ({ type: "response_item", payload: { type: "function_call_output", output: "ok" } }),
  done: (text: string) => ({
    type: "event_msg",
    payload: { type: "task_complete", last_agent_message: text },
  }),
};

describe("the agent's last words before it asks permission", () => {
  it("are Claude Code's last text in this turn, past tool calls and their results", async () => {
    const path = await transcript([
      claude.prompt("Fix the tests."),
      claude.text("First I will look."),
      claude.toolUse(),
      claude.toolResult(),
      claude.text("The migration is missing; I will apply it."),
      claude.toolUse(),
    ]);
    expect(await claudeCodeAdapter.lastWordsFromTranscript(path, NO_DEADLINE)).toBe(
      "The migration is missing; I will apply it.",
    );
  });

  it("are none when Claude Code said nothing since the prompt, even if it spoke in an earlier turn", async () => {
    const path = await transcript([
      claude.prompt("Fix the tests."),
      claude.text("All tests pass now."),
      claude.prompt("Now deploy."),
      claude.toolUse(),
    ]);
    expect(await claudeCodeAdapter.lastWordsFromTranscript(path, NO_DEADLINE)).toBeNull();
  });

  it("are Codex's last assistant message in this turn, and none when it said nothing since the prompt", async () => {
    const spoke = await transcript([
      codex.prompt("Fix it."),
      codex.text("Checking the registry."),
      codex.call(),
    ]);
    expect(await codexAdapter.lastWordsFromTranscript(spoke, NO_DEADLINE)).toBe("Checking the registry.");
    const silent = await transcript([
      codex.prompt("Fix it."),
      codex.text("Done."),
      codex.done("Done."),
      codex.prompt("Deploy."),
      codex.call(),
      codex.output(),
      codex.call(),
    ]);
    expect(await codexAdapter.lastWordsFromTranscript(silent, NO_DEADLINE)).toBeNull();
  });

  it("are unknown when the transcript cannot be read", async () => {
    expect(
      await codexAdapter.lastWordsFromTranscript("/nonexistent/rollout.jsonl", NO_DEADLINE),
    ).toBeUndefined();
  });
});

describe("the ask in the transcript", () => {
  it("is seen once the agent wrote its tool call in this turn, and not before", async () => {
    const written = await transcript([
      claude.prompt("Fix it."),
      claude.text("I will run it."),
      claude.toolUse(),
    ]);
    expect(await claudeCodeAdapter.isAskInTranscript(written, NO_DEADLINE)).toBe(true);
    const notYet = await transcript([claude.prompt("Fix it."), claude.toolUse(), claude.prompt("Deploy.")]);
    expect(await claudeCodeAdapter.isAskInTranscript(notYet, NO_DEADLINE)).toBe(false);
    expect(
      await codexAdapter.isAskInTranscript(
        await transcript([codex.prompt("Go."), codex.call()]),
        NO_DEADLINE,
      ),
    ).toBe(true);
    expect(await codexAdapter.isAskInTranscript(await transcript([codex.prompt("Go.")]), NO_DEADLINE)).toBe(
      false,
    );
  });

  it("is waited for a moment: words the agent writes just after running the hook are still its last words", async () => {
    // As Claude Code does on a busy machine: the hook runs before the turn's text and tool call reach the file.
    const path = await transcript([claude.prompt("Create the marker file.")]);
    const payload: PermissionPayload = {
      session_id: "s",
      transcript_path: path,
      cwd: "/home/ada/shop-api",
      tool_name: "Bash",
      tool_input: { command: "touch allowed.txt" },
    };
    const later = setTimeout(() => {
      void appendFile(
        path,
        `${JSON.stringify(claude.text("I'll create the marker file."))}\n${JSON.stringify(claude.toolUse())}\n`,
      );
    }, 200);
    try {
      const request = await buildPermissionRequest(claudeCodeAdapter, payload, {
        cwd: "/",
        deadline: Date.now() + 5000,
      });
      expect(request.lastWords).toBe("I'll create the marker file.");
    } finally {
      clearTimeout(later);
    }
  });
});
