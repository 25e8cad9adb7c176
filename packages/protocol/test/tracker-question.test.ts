import { describe, expect, it } from "vitest";
import { generatedBrief, SealedReportPayload } from "../src/index.js";

const payload = {
  report: {
    eventId: "evt_q",
    source: "tracker",
    occurredAt: "2026-03-02T10:00:00.000Z",
    text: "Claude asks.",
  },
  brief: generatedBrief(
    { title: "Claude needs you on RING-12", spoken: "Claude asks you a question on RING-12.", cards: [] },
    { llmCalls: 0, model: null, language: "en-US", generatedAt: "2026-03-02T10:00:00.000Z" },
  ),
};

describe("SealedReportPayload.trackerQuestion", () => {
  it("is optional, and carries the trigger, the question whole and the asking comment", () => {
    expect(SealedReportPayload.parse(payload).trackerQuestion).toBeUndefined();
    const question = { trigger: "blocked", question: "", commentId: null };
    expect(SealedReportPayload.parse({ ...payload, trackerQuestion: question }).trackerQuestion).toEqual(
      question,
    );
  });

  it("refuses an unknown trigger", () => {
    const question = { trigger: "assigned", question: "Which region?", commentId: "c1" };
    expect(SealedReportPayload.safeParse({ ...payload, trackerQuestion: question }).success).toBe(false);
  });
});
