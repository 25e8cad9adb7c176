import {
  DispatchIssuesRequest,
  type DispatchIssuesResponse,
  DispatchOptionsRequest,
  DispatchStatusesRequest,
  type DispatchStatusesResponse,
} from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import {
  readDispatchIssues,
  readDispatchOptions,
  readDispatchStatuses,
} from "../runtime/tracker/dispatch-options.js";

/**
 * What the dispatch screen chooses from (spec: Dispatch): `GET/POST /tracker/dispatch/options`,
 * `POST /tracker/dispatch/issues`, `POST /tracker/dispatch/statuses`. Each reads a watched workspace,
 * the first one unless `workspaceId` names another.
 */
export function dispatchOptionsRoutes(app: AppContext): Hono {
  const { access } = app.tracker;
  return new Hono()
    .get("/tracker/dispatch/options", async (context) => {
      const client = access.requireClient();
      return context.json(await readDispatchOptions(client, access.watchedWorkspace()));
    })
    .post("/tracker/dispatch/options", async (context) => {
      const request = parseBody(DispatchOptionsRequest, await readJsonBody(context, SETTINGS_BODY_MAX_BYTES));
      const client = access.requireClient();
      return context.json(await readDispatchOptions(client, access.watchedWorkspace(request.workspaceId)));
    })
    .all("/tracker/dispatch/options", methodNotAllowed(["GET", "POST"]))
    .post("/tracker/dispatch/issues", async (context) => {
      const request = parseBody(DispatchIssuesRequest, await readJsonBody(context, SETTINGS_BODY_MAX_BYTES));
      const client = access.requireClient();
      const issues = await readDispatchIssues(client, access.watchedWorkspace(request.workspaceId), request);
      return context.json({ issues } satisfies DispatchIssuesResponse);
    })
    .all("/tracker/dispatch/issues", methodNotAllowed(["POST"]))
    .post("/tracker/dispatch/statuses", async (context) => {
      const request = parseBody(
        DispatchStatusesRequest,
        await readJsonBody(context, SETTINGS_BODY_MAX_BYTES),
      );
      const client = access.requireClient();
      const statuses = await readDispatchStatuses(client, access.watchedWorkspace(request.workspaceId));
      return context.json({ statuses } satisfies DispatchStatusesResponse);
    })
    .all("/tracker/dispatch/statuses", methodNotAllowed(["POST"]));
}
