import { answers, startFakeModel } from "@ringback/fake-model";
import { Brief, NO_LANGUAGE_MODEL_ERROR } from "@ringback/protocol";
import { freePort } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { generateBrief } from "../src/index.js";
import { API_KEY, channelFor, report } from "./helpers.js";

/** A failed brief as the spec wants it: the report's first line as title, nothing else to read. */
function expectFailed(brief: Brief, llmCalls: number, error: string | RegExp) {
  expect(Brief.parse(brief)).toEqual(brief);
  expect(brief).toMatchObject({
    title: "Fixed the login bug",
    spoken: "",
    cards: [],
    openQuestions: [],
    criticalFacts: [],
    supplementary: null,
    meta: { status: "failed", llmCalls, language: "en-US" },
  });
  if (typeof error === "string") expect(brief.meta.error).toBe(error);
  else expect(brief.meta.error).toMatch(error);
}

describe("generateBrief failures give a failed brief", () => {
  it("with no model configured: llmCalls 0 and the spec's error", async () => {
    const brief = await generateBrief({ report: report(), channel: null, language: "en-US" });

    expectFailed(brief, 0, NO_LANGUAGE_MODEL_ERROR);
    expect(brief.meta.error).toBe("No language model is configured on this computer.");
    expect(brief.meta.model).toBeNull();
  });

  it("on invalid JSON", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.invalidJson());

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expectFailed(brief, 1, /^The language model's answer is not valid JSON: /);
    expect(brief.meta.model).toBe("fake-model");
  });

  it("on a schema mismatch, naming the fields", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.schemaMismatch());

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expectFailed(
      brief,
      1,
      "The language model's answer does not match the brief schema: title: Invalid input: expected string, received number; cards: Invalid input: expected array, received undefined",
    );
  });

  it("when the content filter stops the answer", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.contentFilter());

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expectFailed(brief, 1, "The language model's content filter blocked the brief.");
  });

  it("when the model refuses, quoting its refusal", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.refusal("I can't summarise this report."));

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expectFailed(brief, 1, "The language model refused: I can't summarise this report.");
  });

  it("on HTTP 500, quoting the server's message", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.serverError());

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expectFailed(
      brief,
      1,
      "The language model answered HTTP 500: The server had an error while processing your request.",
    );
  });

  it("on HTTP 429 after one request, without retrying", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.rateLimited());

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expectFailed(brief, 1, "The language model answered HTTP 429: Rate limit reached for requests.");
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it("when the model cannot be reached", async () => {
    // Free right now: nothing listens on it.
    const port = await freePort();
    const channel = {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: API_KEY,
      model: "fake-model",
      structuredOutput: "json_schema" as const,
    };

    const brief = await generateBrief({ report: report(), channel, language: "en-US" });

    expectFailed(
      brief,
      1,
      `Could not reach the language model at http://127.0.0.1:${port}/v1/chat/completions: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it("when the answer is not a chat completion", async () => {
    await using fake = await startFakeModel();
    fake.script({ kind: "status", status: 200, body: { hello: "world" } });

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expectFailed(brief, 1, "The language model's answer has no choices.");
  });
});
