import { aad, type E2eKey, sealJson } from "@ringback/e2e-crypto";
import {
  type Brief,
  PERMISSION_WAIT_MS,
  type PermissionAsk,
  type RelayedEvent,
  type ReportSource,
  SealedReportPayload,
  type TrackerQuestion,
} from "@ringback/protocol";
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
  /** A "needs you" call: the agent's ask (see `askFor`). */
  readonly needsYou?: PermissionAsk;
  /** A tracker agent's question (see `trackerQuestionFixture`). */
  readonly trackerQuestion?: TrackerQuestion;
}

/** The command of the fixtures' asks, and the digest the daemon computed of its tool input. */
export const ASK_COMMAND = "rm -rf build && npm run build";
export const ASK_DIGEST = "a".repeat(64);

/**
 * A Claude Code ask to run `ASK_COMMAND`, raised at `occurredAt` (T0 by default) and waited for PERMISSION_WAIT_MS,
 * as the daemon seals it in the call's payload.
 */
export function askFor(occurredAt: Date = T0, change: Partial<PermissionAsk> = {}): PermissionAsk {
  return {
    agent: "claude-code",
    toolName: "Bash",
    toolInput: { command: ASK_COMMAND, description: "Rebuild from scratch" },
    toolInputDigest: ASK_DIGEST,
    lastWords: "The build folder is stale; I will rebuild it.",
    shortened: [],
    expiresAt: new Date(occurredAt.getTime() + PERMISSION_WAIT_MS).toISOString(),
    ...change,
  };
}

/** A "needs you" call's fixture: the ask in words as the brief (no model), the exact command as its one card. */
export function needsYouFixture(
  eventId: string,
  occurredAt: Date = T0,
  ask: PermissionAsk = askFor(occurredAt),
) {
  return {
    eventId,
    source: "claude-code" as const,
    occurredAt: occurredAt.toISOString(),
    text: `Claude Code in project wants to run: ${ASK_COMMAND}`,
    needsYou: ask,
    brief: {
      title: "Claude Code needs you: run a command",
      spoken: `Claude Code, in project, asks to run a command: ${ASK_COMMAND}. It said: the build folder is stale.`,
      cards: [{ title: "Command", body: ASK_COMMAND }],
      openQuestions: [],
    },
  } satisfies ReportFixture;
}

/**
 * A "needs you" call as the relay publishes it (before its `seq` and status): the fixture of `ask`, raised at
 * `occurredAt` and received then, sealed with `key` by the computer `fromDeviceId`.
 */
export async function needsYouEvent(
  key: E2eKey,
  eventId: string,
  occurredAt: Date,
  ask: PermissionAsk,
  fromDeviceId: string,
): Promise<Omit<RelayedEvent, "seq" | "status">> {
  return {
    eventId,
    source: "claude-code",
    occurredAt: occurredAt.toISOString(),
    receivedAt: occurredAt.toISOString(),
    taskId: null,
    fromDeviceId,
    sealed: await sealJson(key, aad.report(eventId), payloadFor(needsYouFixture(eventId, occurredAt, ask))),
  };
}

export const T0 = new Date("2026-03-02T10:00:00.000Z");

/** A tracker agent's question that mentions the user, as the daemon seals it: the question in words as the brief. */
export function trackerQuestionFixture(eventId: string, occurredAt: Date = T0) {
  return {
    eventId,
    source: "tracker" as const,
    occurredAt: occurredAt.toISOString(),
    text: "Claude asks you a question on RING-12.",
    trackerQuestion: {
      trigger: "mention",
      question: "[@Ada](mention://member/u1) redirect the old page, or remove it?",
      commentId: "c1",
    },
    brief: {
      title: "Claude needs you on RING-12",
      spoken:
        'Claude asks you a question on RING-12 "Move the login page". It wrote: @Ada redirect the old page?',
      cards: [{ title: "The question", body: "@Ada redirect the old page, or remove it?" }],
      openQuestions: [],
    },
  } satisfies ReportFixture;
}

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
    ...(fixture.needsYou ? { needsYou: fixture.needsYou } : {}),
    ...(fixture.trackerQuestion ? { trackerQuestion: fixture.trackerQuestion } : {}),
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
