import type { SealedReportPayload } from "@ringback/protocol";

/** A test call's event id starts with this: no computer minted it, and the relay never hears of it. */
export const TEST_CALL_PREFIX = "test-call-";

/** True for a call this device made to ring itself: no agent waits behind it, so nothing it sends can resume one. */
export function isTestCall(eventId: string): boolean {
  return eventId.startsWith(TEST_CALL_PREFIX);
}

/** What a test call says, in the interface language: its title, what is read, and one card. */
export interface TestCallWords {
  readonly title: string;
  readonly spoken: string;
  readonly cardTitle: string;
  readonly cardBody: string;
}

/** The sealed-report payload of a test call raised at `now`: a brief as a computer's model would write it. */
export function testCallPayload(
  eventId: string,
  now: Date,
  words: TestCallWords,
  language: string,
): SealedReportPayload {
  const occurredAt = now.toISOString();
  return {
    report: { eventId, source: "claude-code", occurredAt, text: words.spoken },
    brief: {
      title: words.title,
      spoken: words.spoken,
      cards: [{ title: words.cardTitle, body: words.cardBody }],
      openQuestions: [],
      criticalFacts: [],
      supplementary: null,
      meta: { status: "generated", llmCalls: 0, model: null, language, error: null, generatedAt: occurredAt },
    },
  };
}
