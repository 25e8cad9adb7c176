import { CreateDispatchRequest } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { dispatchRequest, nextLastUsed } from "./dispatch-request.js";

const attachment = { id: "att1", filename: "a.png", markdownUrl: "https://files/a.png" };
const draft = {
  mode: "issue" as const,
  workspaceId: null,
  projectId: "p1",
  agentId: "a1",
  issueId: null,
  words: "Fix it",
};

describe("the dispatch request", () => {
  it("is the create form with project and agent, valid for the protocol", () => {
    const request = dispatchRequest(draft, [attachment]);
    expect(request).toEqual({ projectId: "p1", agentId: "a1", prompt: "Fix it", attachments: [attachment] });
    expect(CreateDispatchRequest.safeParse(request).success).toBe(true);
  });

  it("is the comment form with the issue, and names a chosen workspace", () => {
    const request = dispatchRequest({ ...draft, mode: "comment", issueId: "i12", workspaceId: "ws2" }, []);
    expect(request).toEqual({ issueId: "i12", prompt: "Fix it", attachments: [], workspaceId: "ws2" });
    expect(CreateDispatchRequest.safeParse(request).success).toBe(true);
  });
});

describe("the last used project and agent", () => {
  it("are the dispatch's own", () => {
    expect(nextLastUsed(null, draft)).toEqual({ workspaceId: null, projectId: "p1", agentId: "a1" });
  });

  it("keep the earlier agent after a comment", () => {
    const previous = { workspaceId: null, projectId: "p0", agentId: "a0" };
    expect(nextLastUsed(previous, { ...draft, mode: "comment", projectId: "p2", agentId: "a9" })).toEqual({
      workspaceId: null,
      projectId: "p2",
      agentId: "a0",
    });
  });
});
