import type { DispatchIssue, DispatchIssuesRequest } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { IssueSearch, type IssueSearchView } from "./issue-search.js";

function issue(number: number): DispatchIssue {
  return {
    id: `i${number}`,
    number,
    identifier: `RING-${number}`,
    title: `Issue ${number}`,
    status: "todo",
    priority: "none",
    updatedAt: "2026-03-02T10:00:00.000Z",
  };
}

describe("the comment form's issue search", () => {
  it("shows only the newest search's answer when an older one arrives late", async () => {
    const answers = new Map<string, (issues: DispatchIssue[]) => void>();
    const client = {
      dispatchIssues: (request: DispatchIssuesRequest) =>
        new Promise<{ issues: DispatchIssue[] }>((resolve) =>
          answers.set(request.query ?? "", (issues) => resolve({ issues })),
        ),
    };
    let view: IssueSearchView | null = null;
    const search = new IssueSearch((next) => {
      view = next;
    });
    const input = { projectId: "p1", statusFilter: [], workspaceId: null };
    const older = search.search(client, { ...input, query: "login" });
    const newer = search.search(client, { ...input, query: "12" });
    answers.get("12")?.([issue(12)]);
    await newer;
    answers.get("login")?.([issue(3), issue(4)]);
    await older;
    expect(view).toMatchObject({ query: "12", isSearching: false, issues: [issue(12)] });
  });

  it("sends no statuses when none is chosen (any status) and the words trimmed", async () => {
    const requests: DispatchIssuesRequest[] = [];
    const client = {
      dispatchIssues: async (request: DispatchIssuesRequest) => {
        requests.push(request);
        return { issues: [] };
      },
    };
    const search = new IssueSearch(() => undefined);
    await search.search(client, { projectId: "p1", query: "  ", statusFilter: [], workspaceId: "ws2" });
    await search.search(client, {
      projectId: "p1",
      query: " #12 ",
      statusFilter: ["todo"],
      workspaceId: null,
    });
    expect(requests).toEqual([
      { projectId: "p1", workspaceId: "ws2" },
      { projectId: "p1", query: "#12", statuses: ["todo"] },
    ]);
  });
});
