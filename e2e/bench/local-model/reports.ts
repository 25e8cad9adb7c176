/**
 * Agent reports of the three sizes the goal names, written as a coding agent ends a turn: prose, lists, a test
 * run, changed files, a code block. The same text on every run.
 */

const ONE_LINE =
  "Fixed the flaky login test: the session cookie expired during slow CI runs; all 214 tests pass now.";

const THIRTY_LINES = `## Summary

I fixed the flaky login test and made the session renewal explicit.

The test failed about 1 run in 12 on CI: the session cookie expired while a slow runner was still on the
second page, because the cookie's lifetime was counted from the first request instead of the last one.

## What changed

- The session middleware renews the cookie on every authenticated request (sliding expiry).
- The cookie lifetime stays at 1 hour; it is now a setting, SESSION_TTL_SECONDS.
- The login test waits for the dashboard instead of sleeping 2 seconds.

## Files

- src/server/session.ts
- src/server/session.test.ts
- src/config/settings.ts
- e2e/login.spec.ts

## Checks

- Unit tests: 214 passed, 0 failed (was 213 + 1 flaky).
- The e2e suite ran 50 times in a loop on CI: 50 of 50 green.
- Lint and typecheck are clean.

## Question for you

Should I also raise the production session lifetime from 1 hour to 8 hours? Support asked for it last week,
but it is a security decision, so I left it at 1 hour.`;

const AREAS = ["session", "billing", "search", "uploads", "notifications", "reports", "auth", "webhooks"];

function longReport(): string {
  const lines: string[] = [
    "## Summary",
    "",
    "I migrated the eight backend services from the old job queue to the new one, moved their retry rules",
    "into one policy, and fixed three bugs the migration uncovered. Everything is green except one decision",
    "that needs you: whether to drain the old queue now or keep it running for a week (see the end).",
    "",
  ];
  for (const [index, area] of AREAS.entries()) {
    lines.push(
      `## ${area[0]?.toUpperCase()}${area.slice(1)} service`,
      "",
      `- Moved ${3 + index} job types to the new queue; their payloads are unchanged.`,
      `- Retries now follow the shared policy: ${index + 2} attempts, backoff from ${index + 1} s, jitter 20 %.`,
      `- The dead-letter handler logs the job id and the last error instead of the whole payload.`,
      `- Added ${4 + index * 2} tests for the retry and dead-letter paths.`,
      `- Measured on staging: p95 enqueue latency ${12 + index} ms (was ${30 + index * 3} ms).`,
      "",
    );
    for (let step = 1; step <= 14; step++)
      lines.push(
        `  ${step}. ${area}: checked job type ${area}.${step} end to end on staging; ${step % 5 === 0 ? "needed a payload fix (a date sent as text)" : "no change needed"}.`,
      );
    lines.push("");
  }
  lines.push("## The shared retry policy", "", "```ts");
  for (let line = 0; line < 35; line++)
    lines.push(
      line % 8 === 0
        ? `export function backoffMs${line / 8}(attempt: number, baseMs: number): number {`
        : line % 8 === 7
          ? "}"
          : `  const step${line} = Math.min(baseMs * 2 ** attempt, 60_000) * (0.8 + Math.random() * 0.4); // ${line}`,
    );
  lines.push("```", "", "## Changed files", "");
  for (const area of AREAS)
    for (const file of [
      "queue.ts",
      "queue.test.ts",
      "retry.ts",
      "dead-letter.ts",
      "jobs/index.ts",
      "config.ts",
    ])
      lines.push(`- services/${area}/src/${file}`);
  lines.push("", "## Test run", "", "```");
  for (const [index, area] of AREAS.entries())
    for (let file = 0; file < 6; file++)
      lines.push(
        ` ✓ services/${area}/src/test/file-${file}.test.ts (${10 + ((index * 7 + file * 3) % 23)} tests) ${120 + index * 40 + file * 13}ms`,
      );
  lines.push(
    "",
    " Test Files  48 passed (48)",
    "      Tests  1,042 passed (1,042)",
    "   Duration  41.3s",
    "```",
    "",
    "## Bugs found on the way",
    "",
    "1. The billing service acknowledged a job before writing the invoice: a crash in between lost the invoice.",
    "   It now acknowledges after the write; a test kills the worker between the two.",
    "2. The uploads service retried a 400 from the storage API forever. A 4xx is no longer retried.",
    "3. The search indexer enqueued one job per document on a bulk import (41,000 jobs); it now batches 500.",
    "",
    "## Decision needed",
    "",
    "The old queue still holds 1,318 delayed jobs (mostly reminder emails due in the next 6 days). Either I drain",
    "it now by moving them to the new queue (a script, about 10 minutes, tested on staging), or we keep the old",
    "queue running for a week and switch it off on Monday the 8th. Which do you prefer?",
  );
  return lines.join("\n");
}

export interface BenchReport {
  readonly label: string;
  readonly text: string;
  /** The goal for the time from the hook's report to the ringing event, in seconds (null: none). */
  readonly goalSeconds: number | null;
}

export function benchReports(): BenchReport[] {
  return [
    { label: "1 line", text: ONE_LINE, goalSeconds: null },
    { label: "30 lines", text: THIRTY_LINES, goalSeconds: 60 },
    { label: "350 lines", text: longReport(), goalSeconds: 120 },
  ];
}
