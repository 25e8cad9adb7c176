import { PermissionRequestPost, REPORT_BODY_MAX_BYTES } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";

/**
 * `POST /permission-requests` (local only, the hook's): `200 PermissionAnswer`, at once when nobody needs to be
 * rung, else when a phone decides or the wait ends. The hook going away (`signal`) drops the ask.
 */
export function permissionRequestsRoutes(app: AppContext): Hono {
  return new Hono()
    .post("/permission-requests", async (context) => {
      const body = await readJsonBody(context, REPORT_BODY_MAX_BYTES);
      const request = parseBody(PermissionRequestPost, body);
      const answer = await app.permission.ask(request, context.req.raw.signal);
      return context.json(answer, 200);
    })
    .all("/permission-requests", methodNotAllowed(["POST"]));
}
