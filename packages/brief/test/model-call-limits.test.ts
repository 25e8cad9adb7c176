import { answers, briefDraft, startFakeModel } from "@ringback/fake-model";
import { MODEL_CALL_LIMITS_DEFAULT_MS } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { generateBrief } from "../src/index.js";
import { channelFor, chatBody, report, watchedFetch } from "./helpers.js";

const LOCAL = MODEL_CALL_LIMITS_DEFAULT_MS.local;

// Only the timers are fake: the sockets, the fake server and fetch run for real, and the test moves the clock
// once the fake server says the moment it waits for has come.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the limits of a model call", () => {
  it("streams the call and asks for the usage", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.streamed());

    const brief = await generateBrief({ report: report(), channel: channelFor(fake), language: "en-US" });

    expect(brief.meta.status).toBe("generated");
    expect(chatBody(fake)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("gives a local model that reads a long prompt the local default, not a hosted one's", async () => {
    await using fake = await startFakeModel();
    const watch = watchedFetch();
    // Five minutes of prompt reading, then a slow but steady answer that takes longer than the no-progress limit.
    const pieceMs = LOCAL.noProgressTimeoutMs / 2;
    fake.script(answers.streamed({ firstPieceMs: 5 * 60_000, pieceMs, pieceChars: 40 }));
    const pieces = Math.ceil(JSON.stringify(briefDraft()).length / 40);

    const brief = generateBrief({
      report: report(),
      channel: channelFor(fake),
      language: "en-US",
      fetch: watch.fetch,
    });
    await fake.chatCall(0).arrived;
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    for (let piece = 1; piece <= pieces; piece++) {
      await watch.tokensRead(piece);
      await vi.advanceTimersByTimeAsync(pieceMs);
    }
    await fake.chatCall(0).finished;

    expect((await brief).meta).toMatchObject({ status: "generated", error: null });
  });

  it("gives up at the overall cap while the model still reads the prompt, and closes the connection", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.hang());

    const brief = generateBrief({
      report: report(),
      channel: channelFor(fake, { timeoutMs: 90_000 }),
      language: "en-US",
    });
    await fake.chatCall(0).arrived;
    await vi.advanceTimersByTimeAsync(90_000);

    const { meta } = await brief;
    expect(meta.status).toBe("failed");
    expect(meta.error).toMatch(
      /^The language model did not finish within 90 s \(the overall limit\)\. It had not written a token yet: reading about \d+ prompt tokens \(or finishing another request first\) took longer than that\. Raise the limits in the app \(Settings › Your computer › Language model for briefs\) or with `ringback model limits/,
    );
    await fake.chatCall(0).closedByClient;
  });

  it("gives up when no token comes for the no-progress limit, and says how far the model got", async () => {
    await using fake = await startFakeModel();
    const watch = watchedFetch();
    fake.script(answers.streamed({ firstPieceMs: 20_000, stallAfter: 11 }));

    const brief = generateBrief({
      report: report(),
      channel: channelFor(fake, { noProgressTimeoutMs: 30_000 }),
      language: "en-US",
      fetch: watch.fetch,
    });
    await fake.chatCall(0).arrived;
    await vi.advanceTimersByTimeAsync(20_000);
    await watch.tokensRead(11);
    await vi.advanceTimersByTimeAsync(30_000);

    const { meta } = await brief;
    expect(meta.error).toMatch(
      /^The language model stopped writing: no token came for 30 s \(the no-progress limit\)\. It read about \d+ prompt tokens in 20 s and wrote 11 tokens\. Raise the limits/,
    );
    await fake.chatCall(0).closedByClient;
  });

  it("at the overall cap during the answer, says how long this brief would need at the speed seen", async () => {
    await using fake = await startFakeModel();
    const watch = watchedFetch();
    fake.script(
      answers.streamed({ firstPieceMs: 10_500, pieceMs: 1000 }, briefDraft({ spoken: "x".repeat(400) })),
    );

    const brief = generateBrief({
      report: report(),
      channel: channelFor(fake, { timeoutMs: 60_000 }),
      language: "en-US",
      fetch: watch.fetch,
    });
    await fake.chatCall(0).arrived;
    // Pieces at 10.5 s, 11.5 s, ... 59.5 s: 50 of them before the cap at 60 s.
    await vi.advanceTimersByTimeAsync(10_500);
    for (let piece = 1; piece < 50; piece++) {
      await watch.tokensRead(piece);
      await vi.advanceTimersByTimeAsync(1000);
    }
    await watch.tokensRead(50);
    await vi.advanceTimersByTimeAsync(500);

    const { meta } = await brief;
    expect(meta.error).toMatch(
      /^The language model did not finish within 60 s \(the overall limit\)\. It read about \d+ prompt tokens in 11 s and wrote 50 tokens at 1\.0 tokens\/s\. At that speed a brief of up to (\d+) tokens needs about \d+ s\./,
    );
    await fake.chatCall(0).closedByClient;
  });

  it("rejects with the caller's reason when aborted while streaming, and closes the connection", async () => {
    await using fake = await startFakeModel();
    const watch = watchedFetch();
    fake.script(answers.streamed({ stallAfter: 3 }));
    const controller = new AbortController();

    const brief = generateBrief({
      report: report(),
      channel: channelFor(fake),
      language: "en-US",
      signal: controller.signal,
      fetch: watch.fetch,
    });
    await watch.tokensRead(3);
    controller.abort(new Error("the daemon is stopping"));

    await expect(brief).rejects.toThrow("the daemon is stopping");
    await fake.chatCall(0).closedByClient;
  });
});
