import type { IncomingMessage, ServerResponse } from "node:http";
import type { UserRecord, WorkspaceRecord } from "./records.js";
import type { FakeMulticaState } from "./state.js";

export interface UserContext {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  params: Record<string, string>;
  state: FakeMulticaState;
  user: UserRecord;
  /** The simulator's own address, for URLs it hands out (uploads). */
  baseUrl: string;
}

export interface WorkspaceContext extends UserContext {
  workspace: WorkspaceRecord;
}

/** What a handler answers; `undefined` when it wrote the response itself. */
export type Reply = { status: number; body: unknown } | undefined;

type Scope = "public" | "user" | "workspace";

export interface Route {
  method: string;
  scope: Scope;
  match(path: string): Record<string, string> | undefined;
  handle(context: WorkspaceContext): Reply | Promise<Reply>;
}

function compile(pattern: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern
    .split("/")
    .map((part) => {
      if (part === "*") return ".*";
      if (!part.startsWith(":")) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(part.slice(1));
      return "([^/]+)";
    })
    .join("/");
  const regex = new RegExp(`^${source}/?$`);
  return (path) => {
    const found = regex.exec(path);
    if (!found) return undefined;
    return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? "")]));
  };
}

/** A route under the tracker's auth that needs no workspace (workspaces list, `/api/me`). */
export function userRoute(
  method: string,
  pattern: string,
  handle: (context: UserContext) => Reply | Promise<Reply>,
): Route {
  return { method, scope: "user", match: compile(pattern), handle };
}

/** A route whose workspace comes from the workspace headers or query, as the tracker's middleware does. */
export function workspaceRoute(
  method: string,
  pattern: string,
  handle: (context: WorkspaceContext) => Reply | Promise<Reply>,
): Route {
  return { method, scope: "workspace", match: compile(pattern), handle };
}

/** A route that needs no token (health checks). */
export function publicRoute(method: string, pattern: string, handle: () => Reply): Route {
  return { method, scope: "public", match: compile(pattern), handle };
}

export function ok(body: unknown, status = 200): Reply {
  return { status, body };
}
