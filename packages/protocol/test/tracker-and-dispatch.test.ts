import { describe, expect, it } from "vitest";
import {
  CreateDispatchRequest,
  DispatchIssuesRequest,
  DispatchRecord,
  PutTrackerSettingsRequest,
  RefreshIssuesRequest,
  TrackerSettingsResponse,
  UploadRequest,
} from "../src/index.js";

describe("tracker settings", () => {
  it("accepts {token?, workspaceIds}", () => {
    expect(PutTrackerSettingsRequest.parse({ token: "mul_x", workspaceIds: ["w1", "w2"] })).toEqual({
      token: "mul_x",
      workspaceIds: ["w1", "w2"],
    });
    expect(PutTrackerSettingsRequest.parse({ workspaceIds: ["w1"] })).toEqual({ workspaceIds: ["w1"] });
  });

  it("reads the older {token, workspaceId} form as one workspace", () => {
    expect(PutTrackerSettingsRequest.parse({ token: "mul_x", workspaceId: "w1" })).toEqual({
      token: "mul_x",
      workspaceIds: ["w1"],
    });
  });

  it.each([{}, { workspaceIds: [] }, { workspaceId: "w1" }, { token: 1, workspaceIds: ["w"] }])(
    "rejects %j",
    (body) => {
      expect(PutTrackerSettingsRequest.safeParse(body).success).toBe(false);
    },
  );

  it("returns only workspaces and tokenHint in settings", () => {
    const parsed = TrackerSettingsResponse.parse({
      settings: { workspaces: ["w1"], tokenHint: "****abcd", token: "mul_secret" },
      status: { workspaces: [{ workspaceId: "w1", state: "connected", error: null, connectedAt: null }] },
    });
    expect(JSON.stringify(parsed)).not.toContain("mul_secret");
  });

  it("takes at most 100 issue references", () => {
    const issues = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ workspaceId: "w", issueId: `i${i}` }));
    expect(RefreshIssuesRequest.safeParse({ issues: issues(100) }).success).toBe(true);
    expect(RefreshIssuesRequest.safeParse({ issues: issues(101) }).success).toBe(false);
    expect(RefreshIssuesRequest.safeParse({ issues: [{ workspaceId: "w" }] }).success).toBe(false);
  });
});

describe("dispatch", () => {
  it("accepts the create form and the comment form", () => {
    const create = CreateDispatchRequest.parse({ projectId: "p", agentId: "a", prompt: "Fix the login" });
    expect(create).toEqual({ projectId: "p", agentId: "a", prompt: "Fix the login", attachments: [] });
    const attachment = { id: "f1", filename: "a.png", markdownUrl: "![a.png](https://t/f1)" };
    const comment = CreateDispatchRequest.parse({ issueId: "i", attachments: [attachment] });
    expect(comment).toEqual({ issueId: "i", prompt: "", attachments: [attachment] });
  });

  it("rejects words over 8000 characters and mixed forms", () => {
    expect(
      CreateDispatchRequest.safeParse({ projectId: "p", agentId: "a", prompt: "x".repeat(8001) }).success,
    ).toBe(false);
    expect(
      CreateDispatchRequest.safeParse({ projectId: "p", agentId: "a", prompt: "x".repeat(8000) }).success,
    ).toBe(true);
    expect(CreateDispatchRequest.safeParse({ projectId: "p", issueId: "i", prompt: "x" }).success).toBe(
      false,
    );
    expect(CreateDispatchRequest.safeParse({ projectId: "p", prompt: "x" }).success).toBe(false);
  });

  it("validates issue search and upload bodies", () => {
    expect(
      DispatchIssuesRequest.safeParse({ projectId: "p", query: "RB-12", statuses: ["todo"] }).success,
    ).toBe(true);
    expect(DispatchIssuesRequest.safeParse({ query: "x" }).success).toBe(false);
    expect(UploadRequest.safeParse({ name: "a.png", type: "image/png", data: "iVBORw0KGgo=" }).success).toBe(
      true,
    );
    expect(UploadRequest.safeParse({ name: "a.png", type: "image/png" }).success).toBe(false);
  });

  it("validates a dispatch record with the spec's known fields", () => {
    const record = {
      id: "c1",
      kind: "comment",
      state: "created",
      workspaceId: "w",
      projectId: null,
      agentId: null,
      agentName: "",
      prompt: "please also update the docs",
      images: 2,
      taskId: null,
      issueId: "i",
      issueNumber: 12,
      issueIdentifier: "RB-12",
      title: "Docs",
      status: "todo",
      priority: "high",
      error: null,
      createdAt: "2026-11-22T10:00:00Z",
      updatedAt: "2026-11-22T10:00:00Z",
      taskCompletedAt: null,
    };
    expect(DispatchRecord.parse(record)).toEqual(record);
    expect(DispatchRecord.safeParse({ ...record, state: "done" }).success).toBe(false);
    expect(DispatchRecord.safeParse({ ...record, images: -1 }).success).toBe(false);
  });
});
