import { z } from "zod";
import { nullableString } from "./json-fields.js";
import type { Transport } from "./transport.js";

export interface IssueStatus {
  id: string;
  /** The key issues carry in `status`; a built-in status's key is its category. */
  key: string;
  name: string;
  /** backlog, todo, in_progress, in_review, done, blocked or cancelled. */
  category: string;
  isSystem: boolean;
  color: string | null;
}

const IssueStatusJson = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  category: z.string(),
  is_system: z.boolean().nullish(),
  color: nullableString,
  archived_at: nullableString,
});

export function statusOperations(transport: Transport) {
  return {
    /** The workspace's statuses in board order (the tracker's order), custom ones included, archived ones not. */
    listIssueStatuses(input: { workspaceId: string }): Promise<IssueStatus[]> {
      return transport.read(
        { method: "GET", path: "/api/issue-statuses", workspaceId: input.workspaceId },
        z.object({ statuses: z.array(IssueStatusJson) }).transform((json) =>
          json.statuses
            .filter((status) => status.archived_at === null)
            .map(
              (status): IssueStatus => ({
                id: status.id,
                key: status.key,
                name: status.name,
                category: status.category,
                isSystem: status.is_system ?? false,
                color: status.color,
              }),
            ),
        ),
      );
    },
  };
}
