import { type Brief, generatedBrief, type Report } from "@ringback/protocol";
import type { OutboxEntry } from "../entry.js";

export function makeReport(index: number, overrides: Partial<Report> = {}): Report {
  return {
    eventId: `evt_${String(index).padStart(4, "0")}`,
    source: "claude-code",
    occurredAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
    text: `Report number ${index}: the tests pass.`,
    sessionId: `session-${index}`,
    cwd: "/home/user/project",
    ...overrides,
  };
}

export function makeEntry(index: number, overrides: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    report: makeReport(index),
    state: "accepted",
    brief: null,
    acceptedAt: new Date(Date.UTC(2025, 0, 1)).toISOString(),
    attempts: 0,
    nextAttemptAt: null,
    ...overrides,
  };
}

export function makeBrief(report: Report, overrides: Partial<Brief["meta"]> = {}): Brief {
  const brief = generatedBrief(
    { title: `Brief of ${report.eventId}`, spoken: `Summary of ${report.text}`, cards: [] },
    {
      llmCalls: 1,
      model: "test-model",
      language: "en-US",
      generatedAt: new Date(Date.UTC(2025, 0, 1)).toISOString(),
    },
  );
  return { ...brief, meta: { ...brief.meta, ...overrides } };
}
