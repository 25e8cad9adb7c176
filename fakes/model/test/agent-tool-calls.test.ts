import { describe, expect, it } from "vitest";
import { answers, startFakeModel } from "../src/index.js";
import { parseServerSentEvents } from "./parse-server-sent-events.js";

// biome-ignore lint/suspicious/noExplicitAny: wire events of many shapes, checked by each test.
type EventData = any;

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return response;
}

const BASH_TOOL = { name: "Bash", description: "Run a shell command", input_schema: { type: "object" } };
const EXEC_TOOL = { type: "function", name: "exec_command", parameters: { type: "object" } };

/** Claude Code 2.1.330's first call of a turn, trimmed: reminders, the typed words last, its tools. */
function claudeAsks(typed: string, tools: unknown[] = [BASH_TOOL]) {
  return {
    model: "claude-opus-5-5",
    stream: true,
    tools,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "<system-reminder>\nAttribution…\n</system-reminder>\n" },
          { type: "text", text: typed },
        ],
      },
    ],
  };
}

/** Claude Code's next call: the assistant's tool_use, then the user's tool_result (here a hook's deny). */
function claudeSendsBack(first: ReturnType<typeof claudeAsks>, toolUseId: string, result: string) {
  return {
    ...first,
    messages: [
      ...first.messages,
      {
        role: "assistant",
        content: [{ type: "tool_use", id: toolUseId, name: "Bash", input: { command: "touch allowed.txt" } }],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: toolUseId, content: result, is_error: true }],
      },
    ],
  };
}

/** Codex 0.169.0's first call: environment context, the typed words last, its tools. */
function codexAsks(typed: string, tools: unknown[] = [EXEC_TOOL]) {
  return {
    model: "fake-model",
    stream: true,
    tools,
    input: [
      { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context/>" }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: typed }] },
    ],
  };
}

describe("shellFromPrompt, Anthropic Messages (Claude Code)", () => {
  it("streams a Bash tool_use for `RUN: <command>`, then quotes the tool result and ends the turn", async () => {
    await using fake = await startFakeModel({ defaultAnswer: answers.shellFromPrompt() });
    const first = claudeAsks("RUN: touch allowed.txt");

    const events = parseServerSentEvents<EventData>(
      await (await post(`${fake.url}/messages?beta=true`, first)).text(),
    );

    expect(events.every(({ event, data }) => event === data.type)).toBe(true);
    expect(events.map(({ event }) => event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const start = events[1]?.data;
    expect(start).toMatchObject({
      index: 0,
      content_block: { type: "tool_use", id: expect.stringMatching(/^toolu_/), name: "Bash", input: {} },
    });
    const input = events
      .filter(({ event }) => event === "content_block_delta")
      .map(({ data }) => {
        expect(data.delta.type).toBe("input_json_delta");
        return data.delta.partial_json;
      })
      .join("");
    expect(JSON.parse(input)).toEqual({
      command: "touch allowed.txt",
      description: "Run the command the user asked for",
    });
    expect(events[5]?.data).toMatchObject({ delta: { stop_reason: "tool_use" } });

    const toolUseId = start.content_block.id as string;
    const next = await post(`${fake.url}/messages`, {
      ...claudeSendsBack(first, toolUseId, "The user said no: not on the release branch."),
      stream: false,
    });

    expect(await next.json()).toMatchObject({
      content: [{ type: "text", text: "Tool result (error): The user said no: not on the release branch." }],
      stop_reason: "end_turn",
    });
    expect(fake.toolResults()).toEqual([
      {
        format: "messages",
        callId: toolUseId,
        text: "The user said no: not on the release branch.",
        isError: true,
      },
    ]);
  });

  it("answers whole without stream, with the words before the call and the description given", async () => {
    await using fake = await startFakeModel();
    fake.script(
      answers.shellFromPrompt({ say: "I'll create the marker.", description: "Create the marker" }),
    );

    const response = await post(`${fake.url}/messages`, {
      ...claudeAsks("Please.\nRUN: touch allowed.txt\nThanks."),
      stream: false,
    });

    expect(await response.json()).toMatchObject({
      type: "message",
      content: [
        { type: "text", text: "I'll create the marker." },
        {
          type: "tool_use",
          name: "Bash",
          input: { command: "touch allowed.txt", description: "Create the marker" },
        },
      ],
      stop_reason: "tool_use",
    });
  });

  it("streams the words before the call as a text block at index 0 and the call at index 1", async () => {
    await using fake = await startFakeModel({
      defaultAnswer: answers.shellFromPrompt({ say: "Creating the marker file now." }),
    });

    const events = parseServerSentEvents<EventData>(
      await (await post(`${fake.url}/messages`, claudeAsks("RUN: touch allowed.txt"))).text(),
    );

    const starts = events.filter(({ event }) => event === "content_block_start").map(({ data }) => data);
    expect(starts).toMatchObject([
      { index: 0, content_block: { type: "text" } },
      { index: 1, content_block: { type: "tool_use", name: "Bash" } },
    ]);
    const text = events
      .filter(({ data }) => data.delta?.type === "text_delta")
      .map(({ data }) => data.delta.text)
      .join("");
    expect(text).toBe("Creating the marker file now.");
    expect(
      events.filter(({ event }) => event === "content_block_stop").map(({ data }) => data.index),
    ).toEqual([0, 1]);
  });

  it("gives `otherwise` to a call without `RUN:` or without the Bash tool (a title request)", async () => {
    await using fake = await startFakeModel({
      defaultAnswer: answers.shellFromPrompt({ otherwise: answers.text("A title") }),
    });

    const untooled = await post(`${fake.url}/messages`, { ...claudeAsks("RUN: touch a", []), stream: false });
    const plain = await post(`${fake.url}/messages`, { ...claudeAsks("say hi"), stream: false });

    expect(await untooled.json()).toMatchObject({ content: [{ type: "text", text: "A title" }] });
    expect(await plain.json()).toMatchObject({ content: [{ type: "text", text: "A title" }] });
    expect(fake.toolResults()).toEqual([]);
  });
});

describe("shellFromPrompt, OpenAI Responses (Codex)", () => {
  it("streams an escalated exec_command call for `RUN: <command>`, then quotes the function_call_output", async () => {
    await using fake = await startFakeModel({ defaultAnswer: answers.shellFromPrompt() });
    const first = codexAsks("RUN: touch allowed.txt");

    const events = parseServerSentEvents<EventData>(
      await (await post(`${fake.url}/responses`, first)).text(),
    );

    expect(events.map(({ event }) => event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.map(({ data }) => data.sequence_number)).toEqual(events.map((_, index) => index));
    expect(events[2]?.data.item).toMatchObject({
      type: "function_call",
      name: "exec_command",
      arguments: "",
    });
    const done = events[6]?.data.item;
    expect(done).toMatchObject({
      type: "function_call",
      status: "completed",
      name: "exec_command",
      call_id: expect.stringMatching(/^call_/),
    });
    expect(JSON.parse(done.arguments)).toEqual({
      cmd: "touch allowed.txt",
      yield_time_ms: 10_000,
      sandbox_permissions: "require_escalated",
      justification: "Run the command the user asked for",
    });
    const deltas = events
      .filter(({ event }) => event.endsWith("arguments.delta"))
      .map(({ data }) => data.delta);
    expect(deltas.join("")).toBe(done.arguments);
    expect(events[7]?.data.response).toMatchObject({
      id: events[0]?.data.response.id,
      status: "completed",
      output: [done],
    });

    const output = 'exec_command failed: CreateProcess { message: "Rejected(\\"Not today.\\")" }';
    const next = await post(`${fake.url}/responses`, {
      ...first,
      stream: false,
      input: [
        ...first.input,
        { type: "function_call", call_id: done.call_id, name: "exec_command", arguments: done.arguments },
        { type: "function_call_output", call_id: done.call_id, output },
      ],
    });

    expect(await next.json()).toMatchObject({
      status: "completed",
      output: [{ type: "message", content: [{ type: "output_text", text: `Tool result: ${output}` }] }],
    });
    expect(fake.toolResults()).toEqual([
      { format: "responses", callId: done.call_id, text: output, isError: false },
    ]);
  });

  it("asks inside the sandbox with escalate false, and puts the words before the call first", async () => {
    await using fake = await startFakeModel({
      defaultAnswer: answers.shellFromPrompt({ escalate: false, say: "Running it." }),
    });

    const response = await post(`${fake.url}/responses`, { ...codexAsks("RUN: ls"), stream: false });
    const streamed = parseServerSentEvents<EventData>(
      await (await post(`${fake.url}/responses`, codexAsks("RUN: ls"))).text(),
    );

    const body = (await response.json()) as { output: { arguments: string }[] };
    expect(body.output).toMatchObject([
      { type: "message", content: [{ type: "output_text", text: "Running it." }] },
      { type: "function_call", name: "exec_command" },
    ]);
    expect(JSON.parse(body.output[1]?.arguments ?? "")).toEqual({ cmd: "ls", yield_time_ms: 10_000 });
    const completed = streamed.at(-1)?.data.response;
    expect(completed.output.map((item: { type: string }) => item.type)).toEqual(["message", "function_call"]);
    expect(
      streamed
        .filter(({ event }) => event === "response.output_item.added")
        .map(({ data }) => data.output_index),
    ).toEqual([0, 1]);
  });

  it("gives `otherwise` to a request without exec_command (Codex's review) and to chat completions", async () => {
    await using fake = await startFakeModel({
      defaultAnswer: answers.shellFromPrompt({ otherwise: answers.text("ok") }),
    });

    const review = await post(`${fake.url}/responses`, { ...codexAsks("RUN: touch a", []), stream: false });
    const chat = await post(`${fake.url}/chat/completions`, {
      model: "fake-model",
      messages: [{ role: "user", content: "RUN: touch a" }],
    });

    expect(((await review.json()) as { output: unknown }).output).toMatchObject([{ type: "message" }]);
    expect(await chat.json()).toMatchObject({ choices: [{ message: { content: "ok" } }] });
  });
});
