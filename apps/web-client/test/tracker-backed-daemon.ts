import {
  type Attachment,
  CreateIssueDispatchRequest,
  DispatchIdRequest,
  DispatchIssuesRequest,
  type DispatchRecord,
  ERROR_STATUS,
  errorBody,
  isRingbackError,
  type SettingsRequestPlaintext,
  type SettingsResultPlaintext,
  UploadRequest,
} from "@ringback/protocol";
import { dispatchRecord } from "@ringback/test-kit";
import { createTrackerClient } from "@ringback/tracker-client";
import type { StandInDaemon } from "./stand-in-computer.js";

export interface TrackerBackedDaemonOptions {
  /** The tracker simulator's address. */
  readonly trackerUrl: string;
  readonly token: string;
  /** The one watched workspace. */
  readonly workspaceId: string;
}

/**
 * The daemon's dispatch interface for a browser test, answering every request by really calling the tracker (the
 * simulator in `fakes/multica`) through `@ringback/tracker-client`, as the daemon's routes do: options, statuses,
 * issues, uploads, quick-create, lookup, cancel and the list. Records are kept in memory, newest first. Only the
 * create form is served (the comment form is covered by the daemon's own tests).
 */
export function trackerBackedDaemon(options: TrackerBackedDaemonOptions): {
  daemon: StandInDaemon;
  records: DispatchRecord[];
} {
  const tracker = createTrackerClient({
    token: options.token,
    baseUrl: options.trackerUrl,
    log: () => undefined,
  });
  const workspaceId = options.workspaceId;
  const records: DispatchRecord[] = [];

  const find = (id: string): DispatchRecord => {
    const record = records.find((candidate) => candidate.id === id);
    if (!record) throw Object.assign(new Error("no such dispatch"), { code: "dispatch_not_found" as const });
    return record;
  };

  const refresh = async (record: DispatchRecord): Promise<DispatchRecord> => {
    if (record.state !== "creating" || !record.agentId || !record.taskId) return record;
    const task = await tracker.getAgentTask({ workspaceId, agentId: record.agentId, taskId: record.taskId });
    const now = new Date().toISOString();
    if (task?.issueId) {
      const issue = await tracker.getIssue({ workspaceId, issueId: task.issueId });
      Object.assign(record, {
        state: "created",
        issueId: issue.id,
        issueNumber: issue.number,
        issueIdentifier: issue.identifier,
        title: issue.title,
        status: issue.status,
        priority: issue.priority,
        updatedAt: now,
      });
    } else if (task?.status === "failed" || task?.status === "cancelled") {
      Object.assign(record, { state: task.status, error: task.error ?? task.failureReason, updatedAt: now });
    }
    return record;
  };

  const answer = async (request: SettingsRequestPlaintext): Promise<unknown> => {
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case "GET /tracker/settings":
        return { settings: { workspaces: [workspaceId], tokenHint: "mul_…" }, status: { workspaces: [] } };
      case "PUT /brief/language":
        return { language: "en-US", source: "app" };
      case "GET /tracker/dispatch/options": {
        const [projects, agents] = await Promise.all([
          tracker.listOpenProjects({ workspaceId }),
          tracker.listAgentsWithOnline({ workspaceId }),
        ]);
        return {
          workspaceId,
          projects: projects.map((project) => ({ id: project.id, name: project.title })),
          agents: agents.map((agent) => ({ id: agent.id, name: agent.name, online: agent.online })),
        };
      }
      case "POST /tracker/dispatch/statuses": {
        const statuses = await tracker.listIssueStatuses({ workspaceId });
        return { statuses: statuses.map((status) => ({ key: status.key, name: status.name })) };
      }
      case "POST /tracker/dispatch/issues": {
        const body = DispatchIssuesRequest.parse(request.body);
        const page = await tracker.listProjectIssues({
          workspaceId,
          projectId: body.projectId,
          query: body.query,
        });
        return { issues: page.issues };
      }
      case "POST /tracker/uploads": {
        const body = UploadRequest.parse(request.body);
        const uploaded = await tracker.uploadFile({
          workspaceId,
          filename: body.name,
          contentType: body.type,
          data: Buffer.from(body.data, "base64"),
        });
        const attachment: Attachment = {
          id: uploaded.id,
          filename: uploaded.filename,
          markdownUrl: uploaded.markdownUrl,
        };
        return { attachment };
      }
      case "POST /tracker/dispatches": {
        const body = CreateIssueDispatchRequest.parse(request.body);
        const links = body.attachments.map(
          (attachment) => `![${attachment.filename}](${attachment.markdownUrl})`,
        );
        const { taskId } = await tracker.quickCreateIssue({
          workspaceId,
          prompt: [body.prompt.trim(), ...links].filter(Boolean).join("\n\n"),
          agentId: body.agentId,
          projectId: body.projectId,
          attachmentIds: body.attachments.map((attachment) => attachment.id),
        });
        const now = new Date().toISOString();
        // Creating, no issue yet: the fields not named here are dispatchRecord's own (no agent name, no issue).
        const record = dispatchRecord({
          id: taskId,
          workspaceId,
          projectId: body.projectId,
          agentId: body.agentId,
          prompt: body.prompt,
          images: body.attachments.length,
          taskId,
          createdAt: now,
          updatedAt: now,
        });
        records.unshift(record);
        return { dispatch: record };
      }
      case "POST /tracker/dispatches/lookup":
        return { dispatch: await refresh(find(DispatchIdRequest.parse(request.body).id)) };
      case "POST /tracker/dispatches/cancel": {
        const record = await refresh(find(DispatchIdRequest.parse(request.body).id));
        if (record.state === "creating" && record.taskId) {
          await tracker.cancelTask({ workspaceId, taskId: record.taskId });
          Object.assign(record, { state: "cancelled", updatedAt: new Date().toISOString() });
        }
        return { dispatch: record };
      }
      case "GET /tracker/dispatches":
        return { dispatches: await Promise.all(records.map(refresh)) };
      default:
        throw Object.assign(new Error(`${route} is not served here`), { code: "not_found" as const });
    }
  };

  const daemon: StandInDaemon = async (request): Promise<SettingsResultPlaintext> => {
    try {
      return { status: 200, body: await answer(request) };
    } catch (error) {
      const code = isRingbackError(error)
        ? error.code
        : ((error as { code?: "not_found" | "dispatch_not_found" }).code ?? "internal_error");
      return { status: ERROR_STATUS[code], body: errorBody(code, (error as Error).message) };
    }
  };
  return { daemon, records };
}
