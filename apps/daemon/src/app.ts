import { Hono } from "hono";
import type { AppContext } from "./app-context.js";
import { renderError, renderNotFound } from "./http/errors.js";
import { localOnly } from "./http/guards.js";
import { agentActivityRoutes } from "./routes/agent-activity.js";
import { briefLanguageRoutes } from "./routes/brief-language.js";
import { callRulesRoutes } from "./routes/call-rules.js";
import { dispatchOptionsRoutes } from "./routes/dispatch-options.js";
import { dispatchUploadsRoutes } from "./routes/dispatch-uploads.js";
import { dispatchesRoutes } from "./routes/dispatches.js";
import { e2eKeyRoutes } from "./routes/e2e-key.js";
import { escalationRoutes } from "./routes/escalation.js";
import { llmSettingsRoutes } from "./routes/llm-settings.js";
import { localPairingRoutes } from "./routes/local-pairing.js";
import { localStatusRoutes } from "./routes/local-status.js";
import { permissionRequestsRoutes } from "./routes/permission-requests.js";
import { presenceRoutes } from "./routes/presence.js";
import { reportRoutes } from "./routes/report.js";
import { trackerIssuesRoutes } from "./routes/tracker-issues.js";
import { trackerSettingsRoutes } from "./routes/tracker-settings.js";

/** The daemon's local interface. Builds the app only; `server.ts` listens. */
export function createApp(context: AppContext): Hono {
  const app = new Hono();
  app.use(
    "*",
    localOnly({
      localKey: context.localKey,
      port: context.port,
      now: () => context.now().getTime(),
      log: context.log,
    }),
  );
  app.route("/", llmSettingsRoutes(context));
  app.route("/", briefLanguageRoutes(context));
  app.route("/", e2eKeyRoutes(context));
  app.route("/", reportRoutes(context));
  app.route("/", agentActivityRoutes(context));
  app.route("/", permissionRequestsRoutes(context));
  app.route("/", presenceRoutes(context));
  app.route("/", escalationRoutes(context));
  app.route("/", callRulesRoutes(context));
  app.route("/", localPairingRoutes(context));
  app.route("/", localStatusRoutes(context));
  app.route("/", trackerSettingsRoutes(context));
  app.route("/", trackerIssuesRoutes(context));
  app.route("/", dispatchOptionsRoutes(context));
  app.route("/", dispatchUploadsRoutes(context));
  app.route("/", dispatchesRoutes(context));
  app.notFound(renderNotFound);
  app.onError(renderError(context.log));
  return app;
}
