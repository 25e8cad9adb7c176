import { type Brief, type ReportSource, SealedReportPayload } from "@ringback/protocol";
import {
  type CallRecord,
  type CallRouting,
  type CallStatusFields,
  newCallRecord,
  withStatus,
} from "../src/calls/call-record.js";

export interface ReportFixture {
  readonly eventId: string;
  readonly source?: ReportSource;
  readonly occurredAt?: string;
  readonly text?: string;
  readonly priority?: string;
  readonly projectId?: string | null;
  readonly projectName?: string | null;
  readonly issueUpdatedAt?: string;
  readonly brief?: Partial<Brief>;
  readonly isBriefFailed?: boolean;
  /** When the computer finished the brief; the report's own time when absent. */
  readonly briefGeneratedAt?: string;
}

export const T0 = new Date("2026-03-02T10:00:00.000Z");

/** A report and brief as the daemon seals them, validated by the protocol schema. */
export function payloadFor(fixture: ReportFixture): SealedReportPayload {
  const occurredAt = fixture.occurredAt ?? T0.toISOString();
  const isTracker =
    fixture.source === "tracker" || fixture.priority !== undefined || fixture.projectName != null;
  const brief: Brief = {
    title: `Title of ${fixture.eventId}`,
    spoken: fixture.isBriefFailed ? "" : `The work on ${fixture.eventId} is done. Tests pass.`,
    cards: fixture.isBriefFailed ? [] : [{ title: "Tests", body: "All 12 tests pass. Nothing is flaky." }],
    openQuestions: fixture.isBriefFailed ? [] : ["Ship it today?"],
    criticalFacts: [],
    supplementary: null,
    meta: {
      status: fixture.isBriefFailed ? "failed" : "generated",
      llmCalls: fixture.isBriefFailed ? 0 : 1,
      model: fixture.isBriefFailed ? null : "test-model",
      language: "en-US",
      error: fixture.isBriefFailed ? "No language model is configured on this computer." : null,
      generatedAt: fixture.briefGeneratedAt ?? occurredAt,
    },
    ...fixture.brief,
  };
  return SealedReportPayload.parse({
    report: {
      eventId: fixture.eventId,
      source: fixture.source ?? (isTracker ? "tracker" : "claude-code"),
      occurredAt,
      text: fixture.text ?? `Finished ${fixture.eventId}.\nAll tests pass.`,
      cwd: "/home/user/project",
      ...(isTracker
        ? {
            tracker: {
              workspaceId: "ws1",
              taskId: `task-${fixture.eventId}`,
              issueId: `issue-${fixture.eventId}`,
              priority: fixture.priority ?? "none",
              projectId: fixture.projectId ?? (fixture.projectName ? `p-${fixture.projectName}` : null),
              projectName: fixture.projectName ?? null,
              ...(fixture.issueUpdatedAt ? { issueUpdatedAt: fixture.issueUpdatedAt } : {}),
            },
          }
        : {}),
    },
    brief,
  });
}

export function routingFor(fixture: ReportFixture): CallRouting {
  const payload = payloadFor(fixture);
  return { eventId: fixture.eventId, source: payload.report.source, occurredAt: payload.report.occurredAt };
}

export function secondsAfter(base: Date, seconds: number): Date {
  return new Date(base.getTime() + seconds * 1000);
}

/** A stored call record in a given state, as the calls page reads it. */
export function recordFor(fixture: ReportFixture, status: Partial<CallStatusFields> = {}): CallRecord {
  return withStatus(newCallRecord(routingFor(fixture), payloadFor(fixture), T0), status);
}
