import type { Route } from "../router.js";
import { agentRoutes } from "./agents.js";
import { commentRoutes } from "./comments.js";
import { issueRoutes } from "./issues.js";
import { projectRoutes } from "./projects.js";
import { quickCreateRoutes } from "./quick-create.js";
import { runtimeRoutes } from "./runtimes.js";
import { statusRoutes } from "./statuses.js";
import { taskRoutes } from "./tasks.js";
import { timelineRoutes } from "./timeline.js";
import { uploadRoutes } from "./uploads.js";
import { workspaceRoutes } from "./workspaces.js";

/** Specific paths before their parameterised siblings (`/api/issues/quick-create` before `/api/issues/:id`). */
export const routes: Route[] = [
  ...workspaceRoutes,
  ...quickCreateRoutes,
  ...issueRoutes,
  ...commentRoutes,
  ...taskRoutes,
  ...timelineRoutes,
  ...statusRoutes,
  ...projectRoutes,
  ...agentRoutes,
  ...runtimeRoutes,
  ...uploadRoutes,
];
