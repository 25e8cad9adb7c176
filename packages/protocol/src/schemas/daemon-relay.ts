import { z } from "zod";
import { Brief } from "./brief.js";
import { EventId, Report, ReportSource } from "./report.js";

/** What is sealed for the client: the report and its brief (AAD `ringback/v1/report/<eventId>`). */
export const SealedReportPayload = z.object({ report: Report, brief: Brief });
export type SealedReportPayload = z.infer<typeof SealedReportPayload>;

/** `POST /v1/daemon/events` body: routing plaintext plus the sealed payload. */
export const DaemonEventPost = z.object({
  eventId: EventId,
  source: ReportSource,
  occurredAt: z.iso.datetime({ offset: true }),
  /** `e2e1.<keyId>.<iv>.<ciphertext>` of a SealedReportPayload. */
  sealed: z.string().startsWith("e2e1."),
});
export type DaemonEventPost = z.infer<typeof DaemonEventPost>;

/** `POST /v1/daemon/tracker-reports` body: the tracker task id in plaintext so a task rings once. */
export const DaemonTrackerReportPost = DaemonEventPost.extend({
  source: z.literal("tracker"),
  taskId: z.string().min(1).max(200),
});
export type DaemonTrackerReportPost = z.infer<typeof DaemonTrackerReportPost>;
