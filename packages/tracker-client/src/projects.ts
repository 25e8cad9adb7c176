import { z } from "zod";
import { count, nullableString } from "./json-fields.js";
import type { Transport } from "./transport.js";

/** `planned` (default), `in_progress`, `paused`, `completed` (finished) or `cancelled`. */
export type ProjectStatus = "planned" | "in_progress" | "paused" | "completed" | "cancelled" | (string & {});

export interface Project {
  id: string;
  workspaceId: string;
  title: string;
  description: string | null;
  icon: string | null;
  status: ProjectStatus;
  priority: string;
  leadType: string | null;
  leadId: string | null;
  startDate: string | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  issueCount: number;
  /** Issues whose status is done or cancelled. */
  doneCount: number;
}

const ProjectJson = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    title: z.string(),
    description: nullableString,
    icon: nullableString,
    status: z.string(),
    priority: z.string().nullish(),
    lead_type: nullableString,
    lead_id: nullableString,
    start_date: nullableString,
    due_date: nullableString,
    created_at: z.string(),
    updated_at: z.string(),
    issue_count: count,
    done_count: count,
  })
  .transform(
    (json): Project => ({
      id: json.id,
      workspaceId: json.workspace_id,
      title: json.title,
      description: json.description,
      icon: json.icon,
      status: json.status,
      priority: json.priority ?? "none",
      leadType: json.lead_type,
      leadId: json.lead_id,
      startDate: json.start_date,
      dueDate: json.due_date,
      createdAt: json.created_at,
      updatedAt: json.updated_at,
      issueCount: json.issue_count,
      doneCount: json.done_count,
    }),
  );

/** Unfinished and uncancelled: the tracker counts `completed` and `cancelled` projects as closed. */
export function isProjectOpen(project: Project): boolean {
  return project.status !== "completed" && project.status !== "cancelled";
}

export function projectOperations(transport: Transport) {
  function listProjects(input: { workspaceId: string }): Promise<Project[]> {
    return transport.read(
      { method: "GET", path: "/api/projects", workspaceId: input.workspaceId },
      z.object({ projects: z.array(ProjectJson) }).transform((json) => json.projects),
    );
  }

  return {
    /** Every project of the workspace, newest first. */
    listProjects,

    /** The workspace's unfinished, uncancelled projects, newest first. */
    async listOpenProjects(input: { workspaceId: string }): Promise<Project[]> {
      return (await listProjects(input)).filter(isProjectOpen);
    },

    /** One project; unknown: `project_not_found`. */
    getProject(input: { workspaceId: string; projectId: string }): Promise<Project> {
      return transport.read(
        {
          method: "GET",
          path: `/api/projects/${encodeURIComponent(input.projectId)}`,
          workspaceId: input.workspaceId,
          errors: { notFound: "project_not_found" },
        },
        ProjectJson,
      );
    },
  };
}
