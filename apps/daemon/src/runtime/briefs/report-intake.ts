import { Report, type ReportRequest } from "@ringback/protocol";
import { mintEventId } from "./event-id.js";

/** The outbox's `Report` for a `POST /report` body: its event id minted, its time normalised to UTC. */
export function reportFromRequest(request: ReportRequest, acceptedAt: Date): Report {
  const occurredAt = request.occurredAt ? new Date(request.occurredAt) : acceptedAt;
  return Report.parse({
    eventId: mintEventId(request),
    source: request.source,
    occurredAt: occurredAt.toISOString(),
    text: request.text,
    sessionId: request.sessionId,
    turnId: request.turnId,
    cwd: request.cwd,
    model: request.model,
  });
}
