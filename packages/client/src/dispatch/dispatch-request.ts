import type { Attachment, CreateDispatchRequest } from "@ringback/protocol";
import type { DispatchLastUsed } from "../storage/local-settings.js";
import type { DispatchView } from "./dispatch-view.js";

type Draft = Pick<DispatchView, "mode" | "workspaceId" | "projectId" | "agentId" | "issueId" | "words">;

/**
 * `POST /tracker/dispatches`: the create form (project and agent) or the comment form (issue), the words as typed
 * and the uploaded images; the workspace only when one was chosen (the daemon defaults to the first watched).
 */
export function dispatchRequest(draft: Draft, attachments: readonly Attachment[]): CreateDispatchRequest {
  const common = {
    prompt: draft.words,
    attachments: [...attachments],
    ...(draft.workspaceId ? { workspaceId: draft.workspaceId } : {}),
  };
  if (draft.mode === "comment") return { issueId: draft.issueId ?? "", ...common };
  return { projectId: draft.projectId ?? "", agentId: draft.agentId ?? "", ...common };
}

/** After a dispatch: its workspace and project; its agent, or the earlier one for a comment (which has none). */
export function nextLastUsed(previous: DispatchLastUsed | null, draft: Draft): DispatchLastUsed {
  return {
    workspaceId: draft.workspaceId,
    projectId: draft.projectId,
    agentId: draft.mode === "issue" ? draft.agentId : (previous?.agentId ?? null),
  };
}
