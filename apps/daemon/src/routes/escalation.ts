import type { EscalationSettingsResponse, EscalationTestResponse } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import {
  publicEscalation,
  savedEscalation,
  updatedEscalation,
} from "../runtime/escalation/escalation-settings.js";

/**
 * `GET/PUT /escalation/settings` and `POST /escalation/test`: the ladder's channels and schedule, from the phone
 * (sealed, through the relay) or `ringback escalation`. Secrets go in, never out: the answer holds hints only.
 */
export function escalationRoutes(app: AppContext): Hono {
  return new Hono()
    .get("/escalation/settings", (context) =>
      context.json(publicEscalation(savedEscalation(app.config.raw)) satisfies EscalationSettingsResponse),
    )
    .put("/escalation/settings", async (context) => {
      const body = await readJsonBody(context, SETTINGS_BODY_MAX_BYTES);
      const escalation = updatedEscalation(app.config.raw, body);
      await app.config.update((raw) => ({ ...raw, escalation }));
      const kinds = escalation.channels.map((channel) => channel.kind).join(", ") || "none";
      app.log(`escalation channels set: ${kinds}`);
      return context.json(publicEscalation(escalation) satisfies EscalationSettingsResponse);
    })
    .all("/escalation/settings", methodNotAllowed(["GET", "PUT"]))
    .post("/escalation/test", async (context) => {
      return context.json((await app.escalation.test()) satisfies EscalationTestResponse);
    })
    .all("/escalation/test", methodNotAllowed(["POST"]));
}
