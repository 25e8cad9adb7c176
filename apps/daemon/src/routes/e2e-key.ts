import { KeyRotationNotice, PutE2eKeyRequest } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import { e2eKeyRecord, followE2eKeyRotations, replaceE2eKey } from "../runtime/keys/e2e-key.js";

/**
 * `GET/PUT /e2e/key` (spec: Encryption and pairing; local only), and `POST /key-rotation`: a device that removed
 * another hands this computer the account's new key, sealed under the current one, through the settings path
 * (relayed, so it is not under `/e2e`). The request itself was opened with the current key, so only a holder of it
 * sends one, and the notice moves this computer only from the key it holds now.
 */
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
    .all("/e2e/key", methodNotAllowed(["GET", "PUT"]))
    .post("/key-rotation", async (context) => {
      const body = await readJsonBody(context, SETTINGS_BODY_MAX_BYTES);
      const notice = parseBody(KeyRotationNotice, body);
      return context.json(await followE2eKeyRotations(app.config, [notice], app.now(), { log: app.log }));
    })
    .all("/key-rotation", methodNotAllowed(["POST"]));
}
