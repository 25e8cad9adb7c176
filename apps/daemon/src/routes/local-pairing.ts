import { LocalLoginRequest, LocalPairingRequest } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";

/**
 * `POST /local/pairing` (a pairing code and link for another device) and `POST /local/login` (what
 * `ringback login` asks a running daemon to do). Local only: relayed, every `/local/*` path is 403 `not_relayed`.
 */
export function localPairingRoutes(app: AppContext): Hono {
  return new Hono()
    .post("/local/pairing", async (context) => {
      // The body is optional; `deviceName` names the joining device, which the relay learns when it redeems.
      if (hasBody(context.req.header("content-length"), context.req.header("transfer-encoding"))) {
        parseBody(LocalPairingRequest, await readJsonBody(context, SETTINGS_BODY_MAX_BYTES));
      }
      const pairing = await app.relay.createPairing();
      app.log(`pairing code created (valid until ${pairing.expiresAt})`);
      return context.json(pairing);
    })
    .all("/local/pairing", methodNotAllowed(["POST"]))
    .post("/local/login", async (context) => {
      const request = parseBody(LocalLoginRequest, await readJsonBody(context, SETTINGS_BODY_MAX_BYTES));
      return context.json(await app.relay.login(request));
    })
    .all("/local/login", methodNotAllowed(["POST"]));
}

function hasBody(contentLength: string | undefined, transferEncoding: string | undefined): boolean {
  return contentLength === undefined ? transferEncoding !== undefined : contentLength !== "0";
}
