import { errorBody } from "@ringback/protocol";
import type { RelayScript } from "@ringback/test-kit";

/** The relay's duplicate rule: the first post of a tracker task is new (202), every later one `409 duplicate_task`. */
export function duplicateRule(): RelayScript {
  const seenTasks = new Set<string>();
  return ({ path, body }) => {
    const taskId = body.taskId ?? "";
    const isNew = path === "/v1/daemon/tracker-reports" && !seenTasks.has(taskId);
    seenTasks.add(taskId);
    return isNew ? { status: 202, body: { ok: true } } : { status: 409, body: errorBody("duplicate_task") };
  };
}
