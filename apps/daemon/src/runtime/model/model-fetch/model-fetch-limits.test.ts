import { generateBrief } from "@ringback/brief";
import { answers, type FakeModel, startFakeModel } from "@ringback/fake-model";
import type { LlmChannel, Report } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { modelFetch } from "./model-fetch.js";

/** Past the 300 s Node's own fetch waits for a response's head (undici's `headersTimeout`). */
const HEAD_AFTER_MS = 310_000;

const REPORT: Report = {
  eventId: "evt-slow-head",
  source: "claude-code",
  occurredAt: "2025-06-01T10:00:00.000Z",
  text: "The login bug is fixed. All 42 tests pass.",
  cwd: "/home/ada/projects/webshop",
};

function channelFor(fake: FakeModel, overrides: Partial<LlmChannel> = {}): LlmChannel {
  return {
    baseUrl: fake.url,
    apiKey: "sk-test-model-fetch-0123456789",
    model: "fake-model",
    structuredOutput: "json_schema",
    ...overrides,
  };
}

/**
 * `modelFetch` with a count of the streamed tokens the client has read, for tests on fake timers: the test moves
 * the clock only once the client has what the fake server sent (`tokensRead(n)` settles when n have been read).
 */
function countingFetch() {
  let read = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const counted = (text: string) => {
    read += (text.match(/"delta":\{"content":"[^"]/g) ?? []).length;
    for (const waiter of waiters.filter((entry) => entry.count <= read)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const fetch: typeof modelFetch = async (input, init) => {
    const response = await modelFetch(input, init);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let last = "";
    // Pulled one chunk at a time: a chunk counts once the client asks for the next, so it has handled it.
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          counted(last);
          const { done, value } = await reader.read();
          last = done ? "" : decoder.decode(value, { stream: true });
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const tokensRead = (count: number) =>
    count <= read ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }));
  return { fetch, tokensRead };
}

// Only the timers are fake: the sockets, the fake server and modelFetch run for real, and the test moves the clock
// (the fake server's delays and the call's limits) once the moment it waits for has come.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a model call through modelFetch", () => {
  it(`gives a brief when the server sends its head ${HEAD_AFTER_MS / 1000} s after the request, with the first token`, async () => {
    await using fake = await startFakeModel();
    fake.script(answers.delay(HEAD_AFTER_MS, answers.streamed()));

    const brief = generateBrief({
      report: REPORT,
      channel: channelFor(fake),
      language: "en-US",
      fetch: modelFetch,
    });
    await fake.chatCall(0).arrived;
    await vi.advanceTimersByTimeAsync(HEAD_AFTER_MS);

    expect((await brief).meta).toMatchObject({ status: "generated", llmCalls: 1, error: null });
  });

  it("still gives up at the overall cap while the head has not come, and closes the connection", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.hang());

    const brief = generateBrief({
      report: REPORT,
      channel: channelFor(fake, { timeoutMs: 90_000 }),
      language: "en-US",
      fetch: modelFetch,
    });
    await fake.chatCall(0).arrived;
    await vi.advanceTimersByTimeAsync(90_000);

    const { meta } = await brief;
    expect(meta.status).toBe("failed");
    expect(meta.error).toMatch(/^The language model did not finish within 90 s \(the overall limit\)\./);
    await fake.chatCall(0).closedByClient;
  });

  it("still gives up when no token comes for the no-progress limit, and closes the connection", async () => {
    await using fake = await startFakeModel();
    const counting = countingFetch();
    fake.script(answers.streamed({ stallAfter: 3 }));

    const brief = generateBrief({
      report: REPORT,
      channel: channelFor(fake, { noProgressTimeoutMs: 30_000 }),
      language: "en-US",
      fetch: counting.fetch,
    });
    await counting.tokensRead(3);
    await vi.advanceTimersByTimeAsync(30_000);

    const { meta } = await brief;
    expect(meta.error).toMatch(
      /^The language model stopped writing: no token came for 30 s \(the no-progress limit\)\./,
    );
    await fake.chatCall(0).closedByClient;
  });

  it("rejects with the caller's reason when aborted while the server reads the prompt", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.hang());
    const controller = new AbortController();

    const brief = generateBrief({
      report: REPORT,
      channel: channelFor(fake),
      language: "en-US",
      signal: controller.signal,
      fetch: modelFetch,
    });
    await fake.chatCall(0).arrived;
    controller.abort(new Error("the daemon is stopping"));

    await expect(brief).rejects.toThrow("the daemon is stopping");
    await fake.chatCall(0).closedByClient;
  });
});
