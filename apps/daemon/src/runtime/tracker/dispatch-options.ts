import {
  DISPATCH_ISSUES_MAX,
  type DispatchIssue,
  type DispatchIssuesRequest,
  type DispatchOptions,
  type StatusEntry,
} from "@ringback/protocol";
import type { TrackerClient } from "@ringback/tracker-client";

/**
 * `GET/POST /tracker/dispatch/options`: the workspace's unfinished, uncancelled projects and its agents,
 * each with `online` (its runtime's computer is online). Three reads, made at the same time.
 */
export async function readDispatchOptions(
  client: TrackerClient,
  workspaceId: string,
): Promise<DispatchOptions> {
  const [projects, agents] = await Promise.all([
    client.listOpenProjects({ workspaceId }),
    client.listAgentsWithOnline({ workspaceId }),
  ]);
  return {
    workspaceId,
    projects: projects.map((project) => ({ id: project.id, name: project.title })),
    agents: agents.map((agent) => ({ id: agent.id, name: agent.name, online: agent.online })),
  };
}

/**
 * `POST /tracker/dispatch/issues`: the project's issues by latest activity, at most DISPATCH_ISSUES_MAX,
 * filtered by `query` (title words or issue number, prefix optional) and `statuses`. The project is read
 * alongside, so that a project that does not exist is `project_not_found` rather than an empty list.
 */
export async function readDispatchIssues(
  client: TrackerClient,
  workspaceId: string,
  request: DispatchIssuesRequest,
): Promise<DispatchIssue[]> {
  // An empty `statuses` list keeps nothing (the tracker would read it as no filter).
  const keepsNothing = request.statuses?.length === 0;
  const [, page] = await Promise.all([
    client.getProject({ workspaceId, projectId: request.projectId }),
    keepsNothing
      ? { issues: [] }
      : client.listProjectIssues({
          workspaceId,
          projectId: request.projectId,
          limit: DISPATCH_ISSUES_MAX,
          ...(request.query?.trim() ? { query: request.query.trim() } : {}),
          ...(request.statuses ? { statuses: request.statuses } : {}),
        }),
  ]);
  return page.issues.slice(0, DISPATCH_ISSUES_MAX).map((issue) => ({
    id: issue.id,
    number: issue.number,
    identifier: issue.identifier,
    title: issue.title,
    status: issue.status,
    priority: issue.priority,
    updatedAt: issue.updatedAt,
  }));
}

/** `POST /tracker/dispatch/statuses`: board order, custom statuses included, archived ones left out. */
export async function readDispatchStatuses(
  client: TrackerClient,
  workspaceId: string,
): Promise<StatusEntry[]> {
  const statuses = await client.listIssueStatuses({ workspaceId });
  return statuses.map((status) => ({ key: status.key, name: status.name }));
}
