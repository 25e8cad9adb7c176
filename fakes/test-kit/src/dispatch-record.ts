import { type DispatchRecord, NO_DISPATCH_ISSUE } from "@ringback/protocol";

/** A dispatch record as the daemon returns it (an issue being created), with the fields a test names. */
export function dispatchRecord(change: Partial<DispatchRecord> = {}): DispatchRecord {
  return {
    id: "d1",
    kind: "issue",
    state: "creating",
    workspaceId: "ws1",
    projectId: "p1",
    agentId: "a1",
    agentName: "",
    prompt: "",
    images: 0,
    taskId: "t1",
    ...NO_DISPATCH_ISSUE,
    error: null,
    createdAt: "2026-03-02T10:00:00.000Z",
    updatedAt: "2026-03-02T10:00:00.000Z",
    taskCompletedAt: null,
    ...change,
  };
}
