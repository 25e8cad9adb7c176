import { isOutboxError } from "@ringback/outbox";
import { REPORT_BODY_MAX_BYTES, type ReportAccepted, ReportRequest, RingbackError } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import { reportFromRequest } from "../runtime/briefs/report-intake.js";

/**
 * `POST /report` (spec: Agent report intake): `202 {"accepted":true}` once the report is durable in the
 * outbox (a resend of the same turn too); `?dryRun=1` answers `200 {report}` and queues nothing.
 */
export function reportRoutes(app: AppContext): Hono {
  return new Hono()
    .post("/report", async (context) => {
      const body = await readJsonBody(context, REPORT_BODY_MAX_BYTES);
      const request = parseBody(ReportRequest, body);
      const report = reportFromRequest(request, app.now());
      const dryRun = context.req.query("dryRun");
      if (dryRun === "1" || dryRun === "true") return context.json({ report }, 200);
      const result = await app.outbox.enqueue(report).catch((error: unknown) => {
        // Never a false 202: the hook hears that this report was not kept, and the next one is tried again.
        if (!isOutboxError(error) || error.code !== "disk_full") throw error;
        app.log(
          `the disk is full: report ${report.eventId} was not kept (free some space in ${app.config.path})`,
        );
        throw new RingbackError("storage_full");
      });
      app.sessions.remember(request.sessionId, {
        cwd: request.cwd,
        source: request.source,
        updatedAt: report.occurredAt,
      });
      app.log(`report ${report.eventId} ${result} from ${request.source} (session ${request.sessionId})`);
      return context.json({ accepted: true } satisfies ReportAccepted, 202);
    })
    .all("/report", methodNotAllowed(["POST"]));
}
