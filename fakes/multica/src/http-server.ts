import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { authenticate, resolveWorkspace } from "./auth.js";
import type { Faults } from "./faults.js";
import { HttpError, sendError, sendJson } from "./http-io.js";
import type { RequestLog } from "./request-log.js";
import type { Route, WorkspaceContext } from "./router.js";
import { routes } from "./routes/index.js";
import type { FakeMulticaState } from "./state.js";

export interface HttpDependencies {
  state: FakeMulticaState;
  faults: Faults;
  requests: RequestLog;
  baseUrl: () => string;
}

const FAULT_MESSAGES: Record<number, string> = {
  429: "too many requests",
  500: "internal server error",
  502: "bad gateway",
  503: "service unavailable",
  504: "gateway timeout",
};

function findRoute(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const params = route.match(path);
    if (params) return { route, params };
  }
  return undefined;
}

/** Records the request, applies a due fault, then authenticates, resolves the workspace and routes. */
export function createRequestHandler(dependencies: HttpDependencies) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    handle(dependencies, request, response).catch((error: unknown) => {
      console.error("fake-multica: unexpected error", error);
      if (!response.headersSent) sendError(response, 500, "internal server error");
    });
  };
}

async function handle(dependencies: HttpDependencies, request: IncomingMessage, response: ServerResponse) {
  const { state, faults, requests } = dependencies;
  const method = request.method ?? "GET";
  const url = new URL(request.url ?? "/", "http://fake-multica");
  requests.record(method, url, request.headers);

  const fault = faults.take(method, url.pathname);
  if (fault?.kind === "reset") {
    request.socket.destroy();
    return;
  }
  if (fault?.kind === "delay") await delay(fault.delayMs);
  if (fault?.kind === "hold") await fault.released;
  if (fault?.kind === "status") {
    request.resume();
    const headers: Record<string, string> =
      fault.retryAfterSeconds === undefined ? {} : { "retry-after": String(fault.retryAfterSeconds) };
    sendError(response, fault.status, fault.message ?? FAULT_MESSAGES[fault.status] ?? "fault", headers);
    return;
  }

  const found = findRoute(method, url.pathname);
  if (!found) {
    request.resume();
    sendError(response, 404, "not found");
    return;
  }
  try {
    const { route, params } = found;
    const user = route.scope === "public" ? undefined : authenticate(state, request.headers);
    const workspace =
      user && route.scope === "workspace" ? resolveWorkspace(state, url, request.headers, user) : undefined;
    // Public routes ignore the context; the others get exactly what their scope promises.
    const context = {
      request,
      response,
      url,
      params,
      state,
      user,
      workspace,
      baseUrl: dependencies.baseUrl(),
    };
    const reply = await route.handle(context as WorkspaceContext);
    if (reply) sendJson(response, reply.status, reply.body);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    request.resume();
    sendJson(response, error.status, error.body ?? { error: error.message });
  }
}
