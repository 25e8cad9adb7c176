import type { FakeModel } from "@ringback/fake-model";
import type { LlmChannel, Report } from "@ringback/protocol";

/** A key long enough to be redacted, with a marker that is easy to grep for. */
export const API_KEY = "sk-test-SECRETKEY-0123456789abcdef";

export function channelFor(fake: FakeModel, overrides: Partial<LlmChannel> = {}): LlmChannel {
  return {
    baseUrl: fake.url,
    apiKey: API_KEY,
    model: "fake-model",
    structuredOutput: "json_schema",
    ...overrides,
  };
}

/** Over 300 characters, so the 60 % rule applies to its brief. */
export const LONG_REPORT_TEXT = [
  "## Fixed the login bug",
  "",
  "The session cookie was not renewed after a password change, so users were logged out at random.",
  "I now renew it on every authenticated request and added a regression test for the password change.",
  "All 42 tests pass. The migration 0017 must run before Friday, otherwise old sessions stay valid.",
  "Should I also shorten the session lifetime to 7 days? Tell me and I will do it in a separate change.",
].join("\n");

export function report(overrides: Partial<Report> = {}): Report {
  return {
    eventId: "evt-1",
    source: "claude-code",
    occurredAt: "2025-06-01T10:00:00.000Z",
    text: LONG_REPORT_TEXT,
    cwd: "/home/ada/projects/webshop",
    ...overrides,
  };
}

/** The parsed JSON body of the n-th chat-completion request. */
export function chatBody(fake: FakeModel, index = 0): Record<string, unknown> {
  const request = fake.chatRequests()[index];
  if (!request) throw new Error(`no chat request #${index}`);
  return request.body as Record<string, unknown>;
}

export function messagesOf(fake: FakeModel, index = 0): { role: string; content: string }[] {
  return chatBody(fake, index).messages as { role: string; content: string }[];
}

/**
 * A fetch that counts the streamed tokens the client has read, for tests on fake timers: the test moves the
 * clock only once the client has what the fake server sent (`tokensRead(n)` settles when n have been read).
 */
export function watchedFetch(): { fetch: typeof fetch; tokensRead(count: number): Promise<void> } {
  let read = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const count = (text: string) => {
    read += (text.match(/"delta":\{"content":"[^"]/g) ?? []).length;
    for (const waiter of waiters.filter((entry) => entry.count <= read)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const watched: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let lastChunk = "";
    // Pulled one chunk at a time: a chunk is counted when the client asks for the next, so it has handled it.
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          count(lastChunk);
          lastChunk = "";
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            return;
          }
          lastChunk = decoder.decode(value, { stream: true });
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch: watched,
    tokensRead: (target) =>
      target <= read ? Promise.resolve() : new Promise((resolve) => waiters.push({ count: target, resolve })),
  };
}
