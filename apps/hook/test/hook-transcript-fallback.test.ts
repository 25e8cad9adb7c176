import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ReportRequest } from "@ringback/protocol";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { startFakeDaemon } from "./support/fake-daemon.js";
import { FIXTURES, type Payload, placeTranscript, readPayload, stdinFor } from "./support/fixtures.js";
import { assertBundleBuilt, hookEnv, runBundle, writeRingbackHome } from "./support/hook-process.js";

beforeAll(assertBundleBuilt);

const CLAUDE_FINAL_REPLY =
  "I fixed the failing checkout test: the discount was applied twice when a coupon and a gift card were combined." +
  "\n\n`pnpm test` now passes (212 tests).";
const CODEX_FINAL_REPLY =
  "Added rate limiting to POST /orders (20 requests per minute per account) with a test for the 429 path. All 214 tests pass.";

async function reportFor(agent: "claude-code" | "codex", payload: Payload, home: string) {
  await using daemon = await startFakeDaemon(202);
  await writeRingbackHome(join(home, ".ringback"), daemon.port);
  const result = await runBundle({ args: [agent], stdin: stdinFor(agent, payload), env: hookEnv(home) });
  expect(result).toMatchObject({ code: 0, stdout: "" });
  expect(daemon.requests).toHaveLength(1);
  return ReportRequest.parse(JSON.parse(daemon.requests[0]?.body ?? ""));
}

describe("ringback-hook reads the final reply from the transcript when the payload has none", () => {
  it("Claude Code (older versions): the text blocks of the last top-level assistant record", async () => {
    await using home = await makeTemporaryDirectory();
    const payload = await readPayload("claude-code-stop");
    delete payload.last_assistant_message;
    payload.transcript_path = await placeTranscript("claude-code-transcript", home.path);

    const report = await reportFor("claude-code", payload, home.path);

    expect(report.text).toBe(CLAUDE_FINAL_REPLY);
    expect(report.model).toBe("claude-sonnet-4-5");
  });

  it("Codex: the last assistant message of the rollout when last_assistant_message is null", async () => {
    await using home = await makeTemporaryDirectory();
    const payload: Payload = { ...(await readPayload("codex-stop")), last_assistant_message: null };
    payload.transcript_path = await placeTranscript("codex-rollout", home.path);

    const report = await reportFor("codex", payload, home.path);

    expect(report.text).toBe(CODEX_FINAL_REPLY);
    expect(report.turnId).toBe(payload.turn_id);
  });

  it("finds the reply at the end of a very large transcript", async () => {
    await using home = await makeTemporaryDirectory();
    const transcript = join(home.path, "large.jsonl");
    const toolOutput = "x".repeat(1024 * 1024);
    const bulky = `${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", content: toolOutput }] } })}\n`;
    await writeFile(transcript, "");
    for (let megabyte = 0; megabyte < 40; megabyte++) await appendFile(transcript, bulky);
    await appendFile(transcript, await readFile(join(FIXTURES, "claude-code-transcript.jsonl")));
    await appendFile(transcript, bulky);
    const payload = await readPayload("claude-code-stop");
    delete payload.last_assistant_message;
    payload.transcript_path = transcript;

    const report = await reportFor("claude-code", payload, home.path);

    expect(report.text).toBe(CLAUDE_FINAL_REPLY);
  });

  it("reports an empty text when the transcript holds no reply", async () => {
    await using home = await makeTemporaryDirectory();
    const transcript = join(home.path, "empty.jsonl");
    await writeFile(transcript, "");
    const payload: Payload = { ...(await readPayload("claude-code-stop")), transcript_path: transcript };
    delete payload.last_assistant_message;

    const report = await reportFor("claude-code", payload, home.path);

    expect(report.text).toBe("");
  });
});
