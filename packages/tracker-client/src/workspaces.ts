import { z } from "zod";
import { nullableString } from "./json-fields.js";
import type { Transport } from "./transport.js";

export interface Workspace {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  /** The prefix of issue identifiers (`ABC` in `ABC-12`). */
  issuePrefix: string;
  avatarUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Legacy workspaces store no prefix; the tracker then shows the first three letters of the name, or WS. */
function legacyPrefix(name: string): string {
  return (
    name
      .replace(/[^a-z]/gi, "")
      .slice(0, 3)
      .toUpperCase() || "WS"
  );
}

const WorkspaceJson = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    description: nullableString,
    issue_prefix: nullableString,
    avatar_url: nullableString,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .transform(
    (json): Workspace => ({
      id: json.id,
      name: json.name,
      slug: json.slug,
      description: json.description,
      issuePrefix: json.issue_prefix || legacyPrefix(json.name),
      avatarUrl: json.avatar_url,
      createdAt: json.created_at,
      updatedAt: json.updated_at,
    }),
  );

/** The token's user (`GET /api/me`): its id is the one in `mention://member/<id>` links and on its comments. */
export interface TrackerUser {
  id: string;
  name: string;
}

const UserJson = z
  .object({ id: z.string(), name: z.string().nullish() })
  .transform((json): TrackerUser => ({ id: json.id, name: json.name ?? "" }));

export function workspaceOperations(transport: Transport) {
  return {
    /** The token's user. A bad token: `invalid_tracker_token`. */
    getMe(): Promise<TrackerUser> {
      return transport.read({ method: "GET", path: "/api/me" }, UserJson);
    },

    /** Every workspace the token's user belongs to, oldest first. A bad token: `invalid_tracker_token`. */
    listWorkspaces(): Promise<Workspace[]> {
      return transport.read({ method: "GET", path: "/api/workspaces" }, z.array(WorkspaceJson));
    },

    /** One workspace; unknown or not a member: `workspace_not_found`. */
    getWorkspace(input: { workspaceId: string }): Promise<Workspace> {
      return transport.read(
        {
          method: "GET",
          path: `/api/workspaces/${encodeURIComponent(input.workspaceId)}`,
          errors: { notFound: "workspace_not_found" },
        },
        WorkspaceJson,
      );
    },
  };
}
