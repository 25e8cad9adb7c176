import { describe, expect, it } from "vitest";
import { answers, startFakeModel } from "../src/index.js";
import { parseServerSentEvents } from "./parse-server-sent-events.js";

/** A wire event's data: every one names its type. */
type EventData = Record<string, unknown> & { type: string };

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** As Claude Code 2.1.330 asks: reminders first, the typed words last, system prompt elsewhere. */
const CLAUDE_REQUEST = {
  model: "claude-opus-5-5",
  max_tokens: 32000,
  stream: true,
  system: [{ type: "text", text: "You are Claude Code." }],
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "<system-reminder>\nAttribution…\n</system-reminder>\n" },
        { type: "text", text: "say hi" },
      ],
    },
  ],
};

/** As Codex 0.169.0 asks: environment context as an earlier user message, the typed words last. */
const CODEX_REQUEST = {
  model: "fake-model",
  instructions: "You are Codex.",
  stream: true,
  input: [
    { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context/>" }] },
    { type: "message", role: "user", content: [{ type: "input_text", text: "say hi" }] },
  ],
};

const messagesUrl = (url: string) => `${url}/messages?beta=true`;

describe("the fake model's Anthropic Messages API (Claude Code)", () => {
  it("streams a whole text turn: message_start, a text block in deltas, end_turn, message_stop", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.text("Hi! The login bug is fixed and all 42 tests pass."));

    const response = await post(messagesUrl(fake.url), CLAUDE_REQUEST, { "x-api-key": "test" });
    const events = parseServerSentEvents<EventData>(await response.text());

    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(events.every(({ event, data }) => event === data.type)).toBe(true);
    const names = events.map(({ event }) => event).filter((name) => name !== "ping");
    expect(names[0]).toBe("message_start");
    expect(names[1]).toBe("content_block_start");
    expect(names.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);
    const deltas = events.filter(({ event }) => event === "content_block_delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map(({ data }) => (data.delta as { text: string }).text).join("")).toBe(
      "Hi! The login bug is fixed and all 42 tests pass.",
    );
    expect(events.find(({ event }) => event === "message_start")?.data).toMatchObject({
      message: { role: "assistant", model: "claude-opus-5-5", content: [], stop_reason: null },
    });
    expect(events.find(({ event }) => event === "message_delta")?.data).toMatchObject({
      delta: { stop_reason: "end_turn" },
      usage: { output_tokens: expect.any(Number) },
    });
    expect(fake.messagesRequests()).toHaveLength(1);
    expect(fake.chatRequests()).toHaveLength(0);
  });

  it("answers a call without stream as one message, and the echo quotes the last words typed", async () => {
    await using fake = await startFakeModel();

    const response = await post(messagesUrl(fake.url), { ...CLAUDE_REQUEST, stream: false });

    expect(await response.json()).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "Fake answer to: say hi" }],
      stop_reason: "end_turn",
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
  });

  it("counts tokens, takes the key as x-api-key and answers errors in Anthropic's shape", async () => {
    await using fake = await startFakeModel({ apiKey: "right" });
    fake.script(answers.serverError());

    const counted = await post(`${fake.url}/messages/count_tokens`, CLAUDE_REQUEST, { "x-api-key": "right" });
    const wrongKey = await post(messagesUrl(fake.url), CLAUDE_REQUEST, { "x-api-key": "wrong" });
    const failed = await post(messagesUrl(fake.url), CLAUDE_REQUEST, { "x-api-key": "right" });

    expect(await counted.json()).toEqual({ input_tokens: expect.any(Number) });
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ type: "error", error: { type: "api_error" } });
  });
});

describe("the fake model's OpenAI Responses API (Codex)", () => {
  it("streams one assistant message from response.created to response.completed", async () => {
    await using fake = await startFakeModel();
    fake.setDefaultAnswer(answers.text("Hi! The migration must run first."));

    const response = await post(`${fake.url}/responses`, CODEX_REQUEST, { authorization: "Bearer k" });
    const events = parseServerSentEvents<EventData>(await response.text());

    const names = events.map(({ event }) => event);
    expect(names[0]).toBe("response.created");
    expect(names).toContain("response.output_item.added");
    expect(names.slice(-2)).toEqual(["response.output_item.done", "response.completed"]);
    expect(events.map(({ data }) => data.sequence_number)).toEqual(events.map((_, index) => index));
    const deltas = events.filter(({ event }) => event === "response.output_text.delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map(({ data }) => data.delta).join("")).toBe("Hi! The migration must run first.");
    const itemDone = events.find(({ event }) => event === "response.output_item.done")?.data;
    expect(itemDone).toMatchObject({
      item: {
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Hi! The migration must run first." }],
      },
    });
    const created = events[0]?.data.response as { id: string };
    expect(events.at(-1)?.data.response).toMatchObject({
      id: created.id,
      status: "completed",
      usage: {
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      },
    });
    expect(fake.responsesRequests()).toHaveLength(1);
  });

  it("echoes the last words typed, and answers a scripted error with an OpenAI error body", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.rateLimited());

    const limited = await post(`${fake.url}/responses`, CODEX_REQUEST);
    const echoed = await post(`${fake.url}/responses`, { ...CODEX_REQUEST, stream: false });

    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: { code: "rate_limit_exceeded" } });
    expect(await echoed.json()).toMatchObject({
      object: "response",
      status: "completed",
      output: [{ type: "message", content: [{ type: "output_text", text: "Fake answer to: say hi" }] }],
    });
  });
});
