import { answers, briefDraft, startFakeModel } from "@ringback/fake-model";
import { afterEach, describe, expect, it, vi } from "vitest";
import { briefJsonSchema, CONNECTION_TEST_REPORT, testConnection } from "../src/index.js";
import { channelFor, chatBody, messagesOf, watchedFetch } from "./helpers.js";

describe("testConnection", () => {
  it("succeeds with the same structured call as a brief generation", async () => {
    await using fake = await startFakeModel();

    const result = await testConnection({ channel: channelFor(fake, { reasoningEffort: "minimal" }) });

    expect(result).toMatchObject({ ok: true, model: "fake-model" });
    expect(chatBody(fake)).toMatchObject({
      model: "fake-model",
      reasoning_effort: "minimal",
      response_format: {
        type: "json_schema",
        json_schema: { name: "brief", strict: true, schema: briefJsonSchema() },
      },
    });
    expect(messagesOf(fake)[1]?.content).toContain(CONNECTION_TEST_REPORT.text);
  });

  it("tells each step as it happens: the server answered, then the first token came", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.streamed({ firstPieceMs: 0, pieceMs: 0, pieceChars: 200 }));
    const steps: string[] = [];

    const result = await testConnection({
      channel: channelFor(fake),
      onProgress: (step) => steps.push(step),
    });

    expect(result.ok).toBe(true);
    expect(steps).toEqual(["connected", "first-token"]);
  });

  it("tells no step past a refusal", async () => {
    await using fake = await startFakeModel({ apiKey: "the-right-key-123" });
    const steps: string[] = [];

    await testConnection({ channel: channelFor(fake), onProgress: (step) => steps.push(step) });

    expect(steps).toEqual([]);
  });

  it("reports the error of a model that does not answer with a brief", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.invalidJson());

    const result = await testConnection({ channel: channelFor(fake, { structuredOutput: "json_object" }) });

    expect(result.ok).toBe(false);
    expect(result.model).toBe("fake-model");
    expect(result.error).toMatch(/^The language model's answer is not valid JSON: /);
  });

  it("reports an HTTP error", async () => {
    await using fake = await startFakeModel({ apiKey: "the-right-key-123" });

    const result = await testConnection({ channel: channelFor(fake) });

    expect(result).toMatchObject({
      ok: false,
      error: "The language model answered HTTP 401: Incorrect API key provided.",
      model: "fake-model",
    });
  });
});

describe("testConnection's measurements", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("measures reading and writing speed and says a long report will not fit the limit, and what to set", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    await using fake = await startFakeModel();
    const watch = watchedFetch();
    // A slow laptop: the prompt read in 20 s, then a piece every 500 ms.
    fake.script(answers.streamed({ firstPieceMs: 20_000, pieceMs: 500, pieceChars: 40 }));
    const pieces = Math.ceil(JSON.stringify(briefDraft()).length / 40);

    const testing = testConnection({ channel: channelFor(fake, { timeoutMs: 120_000 }), fetch: watch.fetch });
    await fake.chatCall(0).arrived;
    await vi.advanceTimersByTimeAsync(20_000);
    for (let piece = 1; piece <= pieces; piece++) {
      await watch.tokensRead(piece);
      await vi.advanceTimersByTimeAsync(500);
    }
    const result = await testing;

    expect(result.ok).toBe(true);
    const timing = result.timing;
    expect(timing).toMatchObject({ endpoint: "local", timeoutMs: 120_000 });
    // The server's usage counts the tokens (the fake: 4 characters each); they came over (pieces - 1) gaps.
    const outputTokens = Math.ceil(JSON.stringify(briefDraft()).length / 4);
    expect(timing?.outputTokensPerSecond).toBeCloseTo((outputTokens - 1) / ((pieces - 1) * 0.5), 5);
    expect(timing?.promptTokensPerSecond).toBeGreaterThan(0);
    const [typical, long] = timing?.estimates ?? [];
    expect(typical).toMatchObject({ report: "typical", lines: 30 });
    expect(long).toMatchObject({ report: "long", lines: 350, fitsTimeout: false });
    expect(long?.promptTokens).toBeGreaterThan(typical?.promptTokens ?? 0);
    expect(timing?.advice).toMatch(
      /^A long report \(about 350 lines\) needs about \d+ s per call, over the overall limit of 120 s: set the limit to at least \d+ min \(`ringback model limits --timeout \d+`/,
    );
  });

  it("gives no advice when both reports fit", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.streamed({ pieceChars: 40 }));

    const result = await testConnection({ channel: channelFor(fake) });

    expect(result.ok).toBe(true);
    expect(result.timing?.advice ?? null).toBeNull();
  });
});
