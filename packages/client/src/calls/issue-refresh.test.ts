import { ISSUE_REFERENCES_MAX } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { recordFor } from "../../test/fixtures.js";
import { applyIssueRefresh, issueRefreshBatches } from "./issue-refresh.js";

describe("issue refresh of history records", () => {
  it(`asks for at most ${ISSUE_REFERENCES_MAX} issues per request, each issue once, and skips local calls`, () => {
    const records = [
      ...Array.from({ length: ISSUE_REFERENCES_MAX + 5 }, (_, index) =>
        recordFor({ eventId: `t${index}`, projectName: "P", priority: "low" }),
      ),
      recordFor({ eventId: "t0", projectName: "P", priority: "low" }),
      recordFor({ eventId: "local", source: "codex" }),
    ];
    const batches = issueRefreshBatches(records);
    expect(batches.map((batch) => batch.length)).toEqual([ISSUE_REFERENCES_MAX, 5]);
    expect(batches[0]![0]).toEqual({ workspaceId: "ws1", issueId: "issue-t0" });
  });

  it("takes the issue's current project, priority and update time, and nothing else", () => {
    const record = recordFor({ eventId: "e1", projectName: "Old", priority: "low" }, { state: "ended" });
    const refreshed = applyIssueRefresh(record, [
      {
        workspaceId: "ws1",
        issueId: "issue-e1",
        projectId: "p-new",
        projectName: "New",
        priority: "urgent",
        updatedAt: "2026-03-03T12:00:00Z",
      },
    ]);
    expect(refreshed.issue).toMatchObject({
      projectName: "New",
      priority: "urgent",
      updatedAt: "2026-03-03T12:00:00Z",
    });
    expect(refreshed.payload).toBe(record.payload);
    expect(refreshed.status).toBe(record.status);
  });

  it("leaves a record alone when its issue was deleted or is no longer accessible", () => {
    const record = recordFor({ eventId: "e1", projectName: "P", priority: "low" });
    expect(applyIssueRefresh(record, [])).toBe(record);
  });
});
