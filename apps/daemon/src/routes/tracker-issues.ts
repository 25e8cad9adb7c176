import { RefreshIssuesRequest, type RefreshIssuesResponse } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import { refreshIssues } from "../runtime/tracker/issue-refresh.js";

/** `POST /tracker/issues`: current project, priority and update time of up to ISSUE_REFERENCES_MAX issues. */
export function trackerIssuesRoutes(app: AppContext): Hono {
  return new Hono()
    .post("/tracker/issues", async (context) => {
      // 100 references of two ids each fit well within the settings limit.
      const request = parseBody(RefreshIssuesRequest, await readJsonBody(context, SETTINGS_BODY_MAX_BYTES));
      const client = app.tracker.access.requireClient();
      const issues = await refreshIssues(client, request.issues);
      return context.json({ issues } satisfies RefreshIssuesResponse);
    })
    .all("/tracker/issues", methodNotAllowed(["POST"]));
}
