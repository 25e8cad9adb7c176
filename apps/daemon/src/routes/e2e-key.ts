import { PutE2eKeyRequest } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import { e2eKeyRecord, replaceE2eKey } from "../runtime/e2e-key.js";

/** `GET/PUT /e2e/key` (spec: Encryption and pairing; local only). */
export function e2eKeyRoutes(app: AppContext): Hono {
  return new Hono()
    .get("/e2e/key", async (context) => context.json(await e2eKeyRecord(app.config)))
    .put("/e2e/key", async (context) => {
      const body = await readJsonBody(context, SETTINGS_BODY_MAX_BYTES);
      const result = await replaceE2eKey(app.config, parseBody(PutE2eKeyRequest, body), app.now(), {
        log: app.log,
      });
      app.log(`end-to-end key replaced (source ${result.source})`);
      return context.json(result);
    })
    .all("/e2e/key", methodNotAllowed(["GET", "PUT"]));
}
