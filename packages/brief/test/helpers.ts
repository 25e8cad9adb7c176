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
