import type { IncomingHttpHeaders } from "node:http";
import { HttpError } from "./http-io.js";
import { isUuid } from "./ids.js";
import type { UserRecord, WorkspaceRecord } from "./records.js";
import type { FakeMulticaState } from "./state.js";

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `Authorization: Bearer <token>`; the literal prefix must be exactly `Bearer `. */
export function authenticate(state: FakeMulticaState, headers: IncomingHttpHeaders): UserRecord {
  const authorization = header(headers, "authorization");
  if (!authorization) throw new HttpError(401, "missing authorization");
  const user = authorization.startsWith("Bearer ") ? state.userByToken(authorization.slice(7)) : undefined;
  if (!user) throw new HttpError(401, "invalid token");
  return user;
}

/** The workspace of a request, in the tracker's priority order: slug query, slug header, id query, id header. */
export function resolveWorkspace(
  state: FakeMulticaState,
  url: URL,
  headers: IncomingHttpHeaders,
  user: UserRecord,
): WorkspaceRecord {
  const slug = url.searchParams.get("workspace_slug") || header(headers, "x-workspace-slug");
  if (slug) {
    const workspace = [...state.workspaces.values()].find((candidate) => candidate.slug === slug);
    if (!workspace || !state.isMember(workspace.id, user.id)) throw new HttpError(404, "workspace not found");
    return workspace;
  }
  const id = url.searchParams.get("workspace_id") || header(headers, "x-workspace-id");
  return workspaceById(state, id, user);
}

export function workspaceById(state: FakeMulticaState, id: string | undefined | null, user: UserRecord) {
  if (!id) throw new HttpError(400, "workspace_id or workspace_slug is required");
  if (!isUuid(id)) throw new HttpError(400, "invalid workspace_id");
  const workspace = state.workspaces.get(id);
  if (!workspace || !state.isMember(id, user.id)) throw new HttpError(404, "workspace not found");
  return workspace;
}
