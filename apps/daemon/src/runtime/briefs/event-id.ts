import { createHash } from "node:crypto";
import type { ReportRequest } from "@ringback/protocol";

const EVENT_ID_PREFIX = "evt_";
/** 128 bits of SHA-256: unique per agent turn without making ids long. */
const EVENT_ID_HEX_CHARS = 32;

/**
 * The event id of an agent turn: the same turn always gets the same id, so a resend never rings twice.
 * Without a turn id (older agents) the text stands in, so at least an identical resend dedupes.
 */
export function mintEventId(
  request: Pick<ReportRequest, "source" | "sessionId" | "turnId" | "text">,
): string {
  const turn = request.turnId ?? request.text;
  const digest = createHash("sha256").update(`${request.source}\n${request.sessionId}\n${turn}`, "utf8");
  return `${EVENT_ID_PREFIX}${digest.digest("hex").slice(0, EVENT_ID_HEX_CHARS)}`;
}
