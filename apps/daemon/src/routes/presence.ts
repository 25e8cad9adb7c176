import {
  AwayScheduleUpdate,
  PRESENCE_SET_FROM_A_DEVICE,
  PRESENCE_SET_HERE,
  type Presence,
  PresenceUpdate,
} from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import { isRelayedRequest, requestSender } from "../http/relayed.js";
import { ownedSchedule } from "../runtime/presence/schedule-owner.js";

/**
 * `GET/PUT /presence`: whether an agent's permission ask rings the phones (away) or waits at the keyboard;
 * `PUT /presence/schedule`: the away times a device's ring modes set.
 */
export function presenceRoutes(app: AppContext): Hono {
  return new Hono()
    .get("/presence", async (context) => context.json((await app.permission.presence()) satisfies Presence))
    .put("/presence", async (context) => {
      const body = await readJsonBody(context, SETTINGS_BODY_MAX_BYTES);
      const { away } = parseBody(PresenceUpdate, body);
      const changedBy = isRelayedRequest(context) ? PRESENCE_SET_FROM_A_DEVICE : PRESENCE_SET_HERE;
      return context.json((await app.permission.setPresence(away, changedBy)) satisfies Presence);
    })
    .all("/presence", methodNotAllowed(["GET", "PUT"]))
    .put("/presence/schedule", async (context) => {
      const body = await readJsonBody(context, SETTINGS_BODY_MAX_BYTES);
      const schedule = ownedSchedule(parseBody(AwayScheduleUpdate, body).schedule, requestSender(context));
      const setBy = isRelayedRequest(context) ? PRESENCE_SET_FROM_A_DEVICE : PRESENCE_SET_HERE;
      return context.json((await app.permission.setAwaySchedule(schedule, setBy)) satisfies Presence);
    })
    .all("/presence/schedule", methodNotAllowed(["PUT"]));
}
