import { CallRules } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";

/**
 * `GET/PUT /call-rules`: the gathering window, the choice per project and the quiet summary, from the phone (sealed,
 * through the relay) or `ringback rules`. A PUT sets the whole of them (`CallRules`; 400 `invalid_request` naming
 * the first wrong field).
 */
export function callRulesRoutes(app: AppContext): Hono {
  return new Hono()
    .get("/call-rules", (context) => context.json(app.callRules.rules() satisfies CallRules))
    .put("/call-rules", async (context) => {
      const rules = parseBody(CallRules, await readJsonBody(context, SETTINGS_BODY_MAX_BYTES));
      return context.json((await app.callRules.save(rules)) satisfies CallRules);
    })
    .all("/call-rules", methodNotAllowed(["GET", "PUT"]));
}
