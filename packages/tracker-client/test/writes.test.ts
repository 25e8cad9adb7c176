import { describe, expect, it } from "vitest";
import { clientFor, rejectionOf, startTracker, type Tracker } from "./tracker.js";

/** Each write and the path it posts to. */
const writes: [
  string,
  (tracker: Tracker) => {
    path: string | RegExp;
    call: (client: ReturnType<typeof clientFor>["client"]) => Promise<unknown>;
  },
][] = [
  [
    "a comment",
    (tracker) => ({
      path: `/api/issues/${tracker.issue.id}/comments`,
      call: (client) =>
        client.postComment({ workspaceId: tracker.workspace.id, issueId: tracker.issue.id, content: "Hi" }),
    }),
  ],
  [
    "an upload",
    (tracker) => ({
      path: "/api/upload-file",
      call: (client) =>
        client.uploadFile({
          workspaceId: tracker.workspace.id,
          filename: "a.png",
          contentType: "image/png",
          data: new Uint8Array(8),
        }),
    }),
  ],
  [
    "a quick-create",
    (tracker) => ({
      path: "/api/issues/quick-create",
      call: (client) =>
        client.quickCreateIssue({
          workspaceId: tracker.workspace.id,
          prompt: "Go",
          agentId: tracker.agent.id,
        }),
    }),
  ],
  [
    "a cancel",
    (tracker) => {
      const task = tracker.state.addTask({ agent_id: tracker.agent.id, issue_id: tracker.issue.id });
      return {
        path: `/api/tasks/${task.id}/cancel`,
        call: (client) => client.cancelTask({ workspaceId: tracker.workspace.id, taskId: task.id }),
      };
    },
  ],
];

describe("writes", () => {
  for (const [name, prepare] of writes) {
    for (const fault of ["a 5xx", "a 429", "a connection reset"] as const) {
      it(`send ${name} once and do not retry it after ${fault}`, async () => {
        await using tracker = await startTracker();
        const { path, call } = prepare(tracker);
        const { faults } = tracker.fake;
        if (fault === "a 5xx") faults.serverError(path, { times: 4 });
        if (fault === "a 429") faults.rateLimit(path, { times: 4 });
        if (fault === "a connection reset") faults.reset(path, { times: 4 });
        const { client, delays } = clientFor(tracker.fake, tracker.token);

        const error = await rejectionOf(call(client));

        expect(error).toMatchObject({ code: "tracker_unavailable" });
        expect(tracker.fake.requests.count("POST", path)).toBe(1);
        expect(delays).toEqual([]);
      });
    }
  }
});
