import {
  type CreateDispatchRequest,
  type DispatchRecord,
  NO_DISPATCH_ISSUE,
  RingbackError,
} from "@ringback/protocol";
import type { TrackerClient } from "@ringback/tracker-client";
import { dispatchContent } from "./dispatch-content.js";
import { assignedAgentId, issueFieldsOf } from "./dispatch-issue.js";

/**
 * Sends a dispatch to the tracker and returns its new record (spec: POST /tracker/dispatches):
 * - create: the selected agent writes the issue from the words through quick-create; `creating`, its id the
 *   quick-create task's id;
 * - comment: a top-level comment on the issue (the tracker triggers its agent); `created`, its id the
 *   comment's id.
 * Neither words nor images: `invalid_dispatch`. Reads come first, so that a refused dispatch writes nothing.
 */
export async function sendDispatch(
  client: TrackerClient,
  workspaceId: string,
  request: CreateDispatchRequest,
  now: Date,
): Promise<DispatchRecord> {
  if (request.prompt.trim() === "" && request.attachments.length === 0) {
    throw new RingbackError("invalid_dispatch", "A dispatch needs words or at least one image.");
  }
  const content = dispatchContent(request.prompt, request.attachments);
  const attachmentIds = request.attachments.map((attachment) => attachment.id);
  const base = {
    workspaceId,
    prompt: request.prompt,
    images: request.attachments.length,
    error: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    taskCompletedAt: null,
  };

  if ("issueId" in request) {
    const issue = await client.getIssue({ workspaceId, issueId: request.issueId });
    const agentId = assignedAgentId(issue);
    const [comment, agentName] = await Promise.all([
      client.postComment({ workspaceId, issueId: issue.id, content, attachmentIds }),
      agentId ? agentNameOrEmpty(client, workspaceId, agentId) : "",
    ]);
    return {
      ...base,
      id: comment.id,
      kind: "comment",
      state: "created",
      projectId: issue.projectId,
      agentId,
      agentName,
      taskId: null,
      ...issueFieldsOf(issue),
    };
  }

  const agent = await client.getAgent({ workspaceId, agentId: request.agentId });
  const { taskId } = await client.quickCreateIssue({
    workspaceId,
    prompt: content,
    agentId: agent.id,
    projectId: request.projectId,
    attachmentIds,
  });
  return {
    ...base,
    id: taskId,
    kind: "issue",
    state: "creating",
    projectId: request.projectId,
    agentId: agent.id,
    agentName: agent.name,
    taskId,
    ...NO_DISPATCH_ISSUE,
  };
}

/** The comment is posted either way; a name the tracker cannot give is left empty. */
async function agentNameOrEmpty(
  client: TrackerClient,
  workspaceId: string,
  agentId: string,
): Promise<string> {
  try {
    return (await client.getAgent({ workspaceId, agentId })).name;
  } catch {
    return "";
  }
}
