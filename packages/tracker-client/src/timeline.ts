import { z } from "zod";
import type { Transport } from "./transport.js";

/** A move of an issue from one status to another, as the tracker's activity log records it. */
export interface StatusMove {
  /** The activity's id. */
  id: string;
  /** `member`, `agent` or `system`; `""` when the tracker names nobody. */
  actorType: string;
  actorId: string;
  /** Status keys (built-in or custom). */
  from: string;
  to: string;
  /**
   * When the tracker recorded the move: RFC3339, whole seconds. It is written just after the issue's own update, so
   * it may fall a second after the `updated_at` that the realtime `issue:updated` of the move carried.
   */
  createdAt: string;
}

/** One entry of `GET /api/issues/{id}/timeline`: a comment or an activity; only what a status move needs is read. */
const TimelineEntryJson = z.object({
  type: z.string(),
  id: z.string(),
  actor_type: z.string().nullish(),
  actor_id: z.string().nullish(),
  created_at: z.string(),
  action: z.string().nullish(),
  details: z.unknown().optional(),
});

const MoveDetailsJson = z.object({ from: z.string().nullish(), to: z.string() });

function statusMoveOf(entry: z.infer<typeof TimelineEntryJson>): StatusMove | undefined {
  if (entry.type !== "activity" || entry.action !== "status_changed") return undefined;
  const details = MoveDetailsJson.safeParse(entry.details);
  if (!details.success) return undefined;
  return {
    id: entry.id,
    actorType: entry.actor_type ?? "",
    actorId: entry.actor_id ?? "",
    from: details.data.from ?? "",
    to: details.data.to,
    createdAt: entry.created_at,
  };
}

export function timelineOperations(transport: Transport) {
  return {
    /**
     * The issue's status moves, oldest first, from its timeline (the tracker keeps the newest 2000 activities of an
     * issue there): who moved it, from which status to which, and when. Unknown issue: `issue_not_found`.
     */
    async listStatusMoves(input: { workspaceId: string; issueId: string }): Promise<StatusMove[]> {
      // Without paging parameters the tracker answers one flat array, oldest first.
      const entries = await transport.read(
        {
          method: "GET",
          path: `/api/issues/${encodeURIComponent(input.issueId)}/timeline`,
          workspaceId: input.workspaceId,
          errors: { notFound: "issue_not_found" },
        },
        z.array(TimelineEntryJson),
      );
      return entries.map(statusMoveOf).filter((move) => move !== undefined);
    },
  };
}
