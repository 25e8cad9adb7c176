import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startFakeModel } from "@ringback/fake-model";
import { describe, expect, it } from "vitest";
import { payloadFor } from "../../test/fixtures.js";
import { briefScript } from "../reading/brief-script.js";
import { READER_START, reduceReader } from "../reading/reader.js";
import { AnswerChunker } from "./answer-chunker.js";
import { streamAnswer } from "./ask-model.js";
import { decisionFor, isQuestion } from "./decisions.js";
import { describeProgress, followReader, startProgress } from "./listening-progress.js";
import { ModelAnswerError } from "./model-problem.js";
import { questionMessages } from "./question-prompt.js";

const payload = payloadFor({ eventId: "e1", text: "Fixed the login bug.\nAll 42 tests pass." });
const script = briefScript(payload, { formOfAddress: "Sam" });

describe("listening progress", () => {
  it("counts the main sentences heard and the cards opened", () => {
    let state = READER_START;
    let progress = startProgress(state);
    expect(describeProgress(script, progress)).toContain("heard 0 of the 2 sentences");
    state = reduceReader(script, state, { type: "sentence-done" });
    progress = followReader(progress, state);
    expect(describeProgress(script, progress)).toContain(
      'heard 1 of the 2 sentences of the spoken brief, up to: "The work on e1 is done."',
    );
    state = reduceReader(script, state, { type: "jump-to-card", card: 0 });
    progress = followReader(progress, state);
    expect(describeProgress(script, progress)).toContain('Cards the user opened: "Tests"');
    expect(describeProgress(script, progress)).toContain('Now at card "Tests", sentence 1 of 3');
    state = reduceReader(script, reduceReader(script, state, { type: "read-main-again" }), { type: "skip" });
    progress = followReader(progress, reduceReader(script, state, { type: "skip" }));
    expect(describeProgress(script, progress)).toContain("heard the whole spoken brief");
  });
});

describe("the question prompt", () => {
  it("carries the full report, the brief, the progress, the decisions and the conversation, in the brief language", () => {
    const messages = questionMessages(
      {
        payload,
        script,
        progress: startProgress(READER_START),
        conversation: [
          { role: "user", text: "Is it deployed?", at: "t1" },
          { role: "assistant", text: "Not yet.", at: "t2" },
        ],
        decisions: [{ text: "Ship it today.", at: "t3", question: "Ship it today?" }],
        formOfAddress: "Sam",
      },
      "Which tests?",
    );
    const system = messages[0]!.content;
    expect(messages[0]!.role).toBe("system");
    expect(system).toContain("Fixed the login bug.\nAll 42 tests pass.");
    expect(system).toContain("The work on e1 is done. Tests pass.");
    expect(system).toContain('Card 1, "Tests": All 12 tests pass.');
    expect(system).toContain('"Ship it today?"');
    expect(system).toContain("heard 0 of the 2 sentences");
    expect(system).toContain('"Ship it today." (settles: "Ship it today?")');
    expect(system).toContain("Answer in American English (en-US)");
    expect(system).toContain('address as "Sam"');
    expect(messages.slice(1)).toEqual([
      { role: "user", content: "Is it deployed?" },
      { role: "assistant", content: "Not yet." },
      { role: "user", content: "Which tests?" },
    ]);
  });
});

describe("decisions", () => {
  const open = ["Ship it today?", "Should I delete the old staging database?"];

  it("records a statement that settles an open question, matched by the words they share", () => {
    expect(decisionFor("Delete the staging database, it is unused.", open, [])).toBe(open[1]);
    expect(decisionFor("Yes, go ahead.", open, [])).toBe(open[0]);
    expect(decisionFor("好的，今天发布。", ["今天发布吗？"], [])).toBe("今天发布吗？");
  });

  it("does not take a question, a thank-you, or a statement once every question is settled", () => {
    expect(decisionFor("Which database?", open, [])).toBeNull();
    expect(decisionFor("what about the tests", open, [])).toBeNull();
    expect(decisionFor("Thanks!", open, [])).toBeNull();
    const settled = open.map((question) => ({ text: "Yes.", at: "t", question }));
    expect(decisionFor("Yes.", open, settled)).toBeNull();
    expect(decisionFor("Yes.", [], [])).toBeNull();
  });

  it("tells questions from statements in English and Chinese", () => {
    expect(isQuestion("Did the build pass")).toBe(true);
    expect(isQuestion("为什么失败了")).toBe(true);
    expect(isQuestion("发布吧。")).toBe(false);
    expect(isQuestion("Do it.")).toBe(true);
    expect(isQuestion("Merge it.")).toBe(false);
  });
});

describe("answer chunking", () => {
  it("hands over each sentence as soon as it is complete", () => {
    const chunker = new AnswerChunker("en-US");
    expect(chunker.push("The tests")).toEqual([]);
    expect(chunker.push(" pass. Version 2.")).toEqual(["The tests pass."]);
    expect(chunker.push("5 is out! And")).toEqual(["Version 2.5 is out!"]);
    expect(chunker.flush()).toEqual(["And"]);
    const chinese = new AnswerChunker("zh-CN");
    expect(chinese.push("测试通过。还有")).toEqual(["测试通过。"]);
  });
});

describe("asking the device's language model", () => {
  it("streams the answer from chat completions with stream: true", async () => {
    await using model = await startFakeModel({ apiKey: "sk-device" });
    const deltas: string[] = [];
    const answer = await streamAnswer({
      channel: { baseUrl: model.url, apiKey: "sk-device", model: "fake-model" },
      messages: [{ role: "user", content: "What changed?" }],
      onDelta: (delta) => deltas.push(delta),
    });
    expect(answer).toBe("Fake answer to: What changed?");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(answer);
    expect(model.chatRequests()[0]?.body).toMatchObject({ stream: true, model: "fake-model" });
  });

  it("fails with the model's status, without the key", async () => {
    await using model = await startFakeModel({ apiKey: "sk-right" });
    const error = await streamAnswer({
      channel: { baseUrl: model.url, apiKey: "sk-wrong-secret", model: "fake-model" },
      messages: [{ role: "user", content: "Hi" }],
      onDelta: () => undefined,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelAnswerError);
    expect((error as ModelAnswerError).problem).toEqual({
      kind: "status",
      status: 401,
      detail: "Incorrect API key provided.",
    });
    expect(String((error as Error).message)).not.toContain("sk-wrong-secret");
  });

  it("fails when a completion that is not streamed has no content", async () => {
    const noContent = (async () =>
      Response.json({ choices: [{ message: { content: null } }] })) as typeof fetch;
    const error = await streamAnswer({
      channel: { baseUrl: "https://models.example/v1", apiKey: "any", model: "m" },
      messages: [{ role: "user", content: "Hi" }],
      onDelta: () => undefined,
      fetch: noContent,
    }).catch((caught: unknown) => caught);
    expect((error as ModelAnswerError).problem).toEqual({ kind: "no-content" });
  });

  it("says the answer was cut off when the connection drops mid-stream, and an abort stays an abort", async () => {
    // The model sends a first piece and holds the stream open; the test drops the connection once that piece is in.
    let drop: () => void = () => undefined;
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${JSON.stringify({ choices: [{ delta: { content: "Half an" } }] })}\n\n`);
      drop = () => {
        response.socket?.destroy();
      };
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const deltas: string[] = [];
      const error = await streamAnswer({
        channel: { baseUrl, apiKey: "any", model: "m" },
        messages: [{ role: "user", content: "Hi" }],
        onDelta: (delta) => {
          deltas.push(delta);
          drop();
        },
      }).catch((caught: unknown) => caught);
      expect(deltas).toEqual(["Half an"]);
      expect((error as ModelAnswerError).problem).toEqual({ kind: "answer-cut-off" });

      const abort = new AbortController();
      const aborted = await streamAnswer({
        channel: { baseUrl, apiKey: "any", model: "m" },
        messages: [{ role: "user", content: "Hi" }],
        onDelta: () => abort.abort(),
        signal: abort.signal,
      }).catch((caught: unknown) => caught);
      expect(aborted).not.toBeInstanceOf(ModelAnswerError);
      expect((aborted as Error).name).toBe("AbortError");
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
