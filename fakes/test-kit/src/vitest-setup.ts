/*
 * A vitest setup file (`setupFiles: ["@ringback/test-kit/vitest-setup"]`): each worker ends when its vitest is gone,
 * so SIGINT, SIGTERM or SIGKILL to vitest alone leaves no worker running on with Chromium or servers.
 */
import { shareCompileCache } from "./compile-cache.js";
import { endWithParent } from "./run-end.js";

endWithParent();
shareCompileCache();
