import {
  ListTrackerWorkspacesRequest,
  type ListTrackerWorkspacesResponse,
  PutTrackerSettingsRequest,
} from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";

/** `GET/PUT/DELETE /tracker/settings`, `POST /tracker/workspaces` (spec: Tracker settings). */
export function trackerSettingsRoutes(app: AppContext): Hono {
  const { settings } = app.tracker;
  return new Hono()
    .get("/tracker/settings", (context) => context.json(settings.current()))
    .put("/tracker/settings", async (context) => {
      const request = parseBody(
        PutTrackerSettingsRequest,
        await readJsonBody(context, SETTINGS_BODY_MAX_BYTES),
      );
      return context.json(await settings.save(request));
    })
    .delete("/tracker/settings", async (context) => context.json(await settings.remove()))
    .all("/tracker/settings", methodNotAllowed(["GET", "PUT", "DELETE"]))
    .post("/tracker/workspaces", async (context) => {
      const request = parseBody(
        ListTrackerWorkspacesRequest,
        await readJsonBody(context, SETTINGS_BODY_MAX_BYTES),
      );
      const workspaces = await settings.workspaces(request.token);
      return context.json({ workspaces } satisfies ListTrackerWorkspacesResponse);
    })
    .all("/tracker/workspaces", methodNotAllowed(["POST"]));
}
