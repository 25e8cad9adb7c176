import { AGENT_ACTIVITY_BODY_MAX_BYTES, AgentActivityPost, type ReportAccepted } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import { sessionAgent } from "../runtime/fleet/fleet-agent-identity.js";

/**
 * `POST /agent-activity` (the hook, at a turn's start): the agent shows as working in the fleet. `202` at once;
 * the relay hears of it in the next coalesced update. `GET /local/fleet`: this computer's fleet state, unsealed
 * (local only: relayed, every `/local/*` path is 403 `not_relayed`).
 */
export function agentActivityRoutes(app: AppContext): Hono {
  return new Hono()
    .post("/agent-activity", async (context) => {
      const post = parseBody(AgentActivityPost, await readJsonBody(context, AGENT_ACTIVITY_BODY_MAX_BYTES));
      app.fleet.record({ kind: "turn-started", ...sessionAgent(post.agent, post.sessionId, post.cwd) });
      return context.json({ accepted: true } satisfies ReportAccepted, 202);
    })
    .all("/agent-activity", methodNotAllowed(["POST"]))
    .get("/local/fleet", (context) => context.json(app.fleet.current()))
    .all("/local/fleet", methodNotAllowed(["GET"]));
}
