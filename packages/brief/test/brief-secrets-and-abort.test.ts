import { answers, briefDraft, type FakeModel, startFakeModel } from "@ringback/fake-model";
import { eventually } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { generateBrief, testConnection } from "../src/index.js";
import { API_KEY, channelFor, report } from "./helpers.js";

describe("the API key", () => {
  it("never appears in a failed brief, even when the server quotes it", async () => {
    await using fake = await startFakeModel();
    fake.script({
      kind: "status",
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${API_KEY}.`, code: "invalid_api_key" } },
    });

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.meta.error).toBe(
      "The language model answered HTTP 401: Incorrect API key provided: [redacted].",
    );
    expect(JSON.stringify(brief)).not.toContain(API_KEY);
  });

  it("never appears in a generated brief, even when the model writes it", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.json(briefDraft({ cards: [{ title: "Key", body: `The key is ${API_KEY}.` }] })));

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.meta.status).toBe("generated");
    expect(brief.cards[0]?.body).toBe("The key is [redacted].");
    expect(JSON.stringify(brief)).not.toContain(API_KEY);
  });

  it("never appears in the error of a request the fetch rejects, nor in a connection test", async () => {
    const channel = {
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: API_KEY,
      model: "fake-model",
      structuredOutput: "json_schema" as const,
    };
    const failingFetch: typeof fetch = async (_input, init) => {
      throw new TypeError("fetch failed", {
        cause: new Error(`socket hang up (${JSON.stringify(init?.headers)})`),
      });
    };

    const brief = await generateBrief({ report: report(), channel, language: "en-US", fetch: failingFetch });
    const connection = await testConnection({ channel, fetch: failingFetch });

    expect(brief.meta.error).toContain("[redacted]");
    expect(JSON.stringify(brief)).not.toContain(API_KEY);
    expect(connection.ok).toBe(false);
    expect(JSON.stringify(connection)).not.toContain(API_KEY);
  });

  it("is sent only in the Authorization header, never in the body", async () => {
    await using fake = await startFakeModel();

    await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(JSON.stringify(fake.chatRequests()[0]?.body)).not.toContain(API_KEY);
  });
});

describe("aborting through the signal", () => {
  /** Aborts a generation once it has sent `requests` model calls: it rejects with the abort's reason. */
  async function expectAbortAfter(fake: FakeModel, requests: number): Promise<void> {
    const controller = new AbortController();
    const reason = new Error("daemon stopping");
    const generation = generateBrief({
      report: report(),
      channel: channelFor(fake),
      language: "en-US",
      signal: controller.signal,
    });
    await eventually(() => fake.chatRequests().length === requests, { what: `${requests} model calls` });
    controller.abort(reason);
    await expect(generation).rejects.toBe(reason);
  }

  it("rejects with the abort reason while the model call is running", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.hang());
    await expectAbortAfter(fake, 1);
  });

  it("rejects with the abort reason during the rewrite", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.uncoveredFact(), answers.hang());
    await expectAbortAfter(fake, 2);
  });

  it("rejects at once, with no request, when the signal is already aborted", async () => {
    await using fake = await startFakeModel();
    const reason = new Error("already stopped");

    await expect(
      generateBrief({
        report: report(),
        channel: channelFor(fake),
        language: "en-US",
        signal: AbortSignal.abort(reason),
      }),
    ).rejects.toBe(reason);
    expect(fake.requests).toHaveLength(0);
  });

  it("rejects even with a fetch that ignores the signal", async () => {
    const controller = new AbortController();
    const reason = new Error("daemon stopping");
    const deafFetch: typeof fetch = () => new Promise<Response>(() => {});
    const channel = {
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: API_KEY,
      model: "m",
      structuredOutput: "json_schema" as const,
    };

    const generation = generateBrief({
      report: report(),
      channel,
      language: "en-US",
      signal: controller.signal,
      fetch: deafFetch,
    });
    controller.abort(reason);

    await expect(generation).rejects.toBe(reason);
  });
});
