import type { FinishedEntry, OutboxEntry } from "@ringback/outbox";
import type { LlmTestProgress, LocalLastReport, LocalStatus } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";

/**
 * `GET /local/status`: the relay link, the outbox's count and its last report, for `ringback doctor`. Local only
 * (relayed, every `/local/*` path is 403 `not_relayed`); identities and counts, never a key or a token.
 */
export function localStatusRoutes(app: AppContext): Hono {
  return (
    new Hono()
      .get("/local/status", (context) => {
        const relay = app.config.config.relay;
        const waiting = app.outboxState.entries();
        const status: LocalStatus = {
          port: app.port(),
          relay: {
            serverUrl: app.relay.serverUrl,
            accountId: relay?.accountId ?? null,
            deviceId: relay?.deviceId ?? null,
            link: app.relay.linkState,
          },
          outbox: {
            waiting: waiting.length,
            lastReport: lastReport(waiting, app.outboxState.finishedEntries()),
          },
        };
        return context.json(status);
      })
      .all("/local/status", methodNotAllowed(["GET"]))
      // The latest model test's step (local only, as every /local path: how long an address took stays here).
      .get("/local/llm-test-progress", (context) =>
        context.json(app.modelTestProgress.read() satisfies LlmTestProgress),
      )
      .all("/local/llm-test-progress", methodNotAllowed(["GET"]))
  );
}

/** The newest report: the last one accepted if it still waits, else the last one finished. */
function lastReport(
  waiting: readonly Readonly<OutboxEntry>[],
  finished: readonly Readonly<FinishedEntry>[],
): LocalLastReport | null {
  const newestWaiting = waiting.reduce<Readonly<OutboxEntry> | null>(
    (newest, entry) => (newest === null || entry.acceptedAt > newest.acceptedAt ? entry : newest),
    null,
  );
  const newestFinished = finished.reduce<Readonly<FinishedEntry> | null>(
    (newest, entry) => (newest === null || entry.finishedAt > newest.finishedAt ? entry : newest),
    null,
  );
  if (newestWaiting && (!newestFinished || newestWaiting.acceptedAt >= newestFinished.finishedAt)) {
    return {
      eventId: newestWaiting.report.eventId,
      source: newestWaiting.report.source,
      acceptedAt: newestWaiting.acceptedAt,
      state: newestWaiting.state,
      reason: null,
      finishedAt: null,
      attempts: newestWaiting.attempts,
    };
  }
  if (!newestFinished) return null;
  return {
    eventId: newestFinished.eventId,
    source: null,
    acceptedAt: null,
    state: newestFinished.state,
    reason: newestFinished.reason,
    finishedAt: newestFinished.finishedAt,
    attempts: 0,
  };
}
