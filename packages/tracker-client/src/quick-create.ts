import type { ErrorCode } from "@ringback/protocol";
import { z } from "zod";
import { failureCode, type TrackerFailure } from "./error-mapping.js";
import type { Transport } from "./transport.js";

export interface QuickCreateInput {
  workspaceId: string;
  /** The user's words; the agent writes the issue (title, description, priority, due date) from them. */
  prompt: string;
  agentId: string;
  projectId?: string;
  /** Ids of files uploaded with `uploadFile`. */
  attachmentIds?: readonly string[];
}

/** The quick-create task to follow: no issue exists yet; the task is linked to it once it does. */
export interface QuickCreateResult {
  taskId: string;
}

/** The 400 texts quick-create uses for an agent that does not exist in the workspace. */
const UNKNOWN_AGENT = new Set([
  "invalid agent_id",
  "assignee_id does not refer to an agent of this workspace",
]);
const UNKNOWN_PROJECT = new Set(["project not found", "invalid project_id"]);

/**
 * Quick-create reports most refusals as 400/403/422 without a code of ours. The texts are the tracker's
 * (handler/issue.go); anything else falls back to the shared rules.
 */
function quickCreateFailure(failure: TrackerFailure): ErrorCode | undefined {
  const code = failureCode(failure);
  if (failure.status === 422 && (code === "agent_unavailable" || code === "daemon_version_unsupported")) {
    return "agent_unavailable";
  }
  // A private agent, an archived agent: it exists but cannot take this work.
  if (failure.status === 403 || failure.message === "cannot assign to archived agent")
    return "agent_unavailable";
  if (failure.status === 400 && UNKNOWN_AGENT.has(failure.message)) return "agent_not_found";
  if (failure.status === 400 && UNKNOWN_PROJECT.has(failure.message)) return "project_not_found";
  return undefined;
}

/** `daemon_version_unsupported` carries versions, not a sentence: one is written from them. */
function describeVersionRefusal(failure: TrackerFailure): string | undefined {
  if (failureCode(failure) !== "daemon_version_unsupported") return undefined;
  const { current_version: current, min_version: minimum } = failure.body as Record<string, unknown>;
  return `the agent's runtime runs Multica CLI ${String(current || "of an unknown version")}; quick-create needs ${String(minimum)} or newer`;
}

export function quickCreateOperations(transport: Transport) {
  return {
    /**
     * Asks the agent to write an issue from the user's words (a write: sent once). Answers with the task
     * to follow. An agent that cannot run now: `agent_unavailable` with the tracker's reason.
     */
    async quickCreateIssue(input: QuickCreateInput): Promise<QuickCreateResult> {
      return transport.write(
        {
          method: "POST",
          path: "/api/issues/quick-create",
          workspaceId: input.workspaceId,
          json: {
            prompt: input.prompt,
            agent_id: input.agentId,
            ...(input.projectId ? { project_id: input.projectId } : {}),
            ...(input.attachmentIds && input.attachmentIds.length > 0
              ? { attachment_ids: input.attachmentIds }
              : {}),
          },
          errors: {
            notFound: "agent_not_found",
            classify: quickCreateFailure,
            describe: describeVersionRefusal,
          },
        },
        z.object({ task_id: z.string() }).transform((json): QuickCreateResult => ({ taskId: json.task_id })),
      );
    },
  };
}
