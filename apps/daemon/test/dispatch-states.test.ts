import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  DISPATCH_COMPLETED_WITHOUT_ISSUE_MS,
  DISPATCH_RECORDS_MAX,
  DISPATCH_WORDS_MAX,
  type DispatchRecord,
} from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DISPATCHES_FILE } from "../src/runtime/tracker/dispatch-store.js";
import { pngBytes, startTrackerHarness, type TrackerHarness } from "./tracker-harness.js";

let harness: TrackerHarness;

beforeEach(async () => {
  harness = await startTrackerHarness();
  await harness.configure();
});

afterEach(async () => {
  await harness.close();
});

/** An image uploaded through the daemon, as the dispatch screen does before creating the dispatch. */
async function uploadedAttachment(): Promise<{ id: string; filename: string; markdownUrl: string }> {
  const { attachment } = await harness.call("/tracker/uploads", {
    body: { name: "screen [1].png", type: "image/png", data: pngBytes().toString("base64") },
  });
  return attachment;
}

function createDispatch(body: Record<string, unknown>): Promise<{ dispatch: DispatchRecord }> {
  return harness.call("/tracker/dispatches", {
    body: { projectId: harness.project.id, agentId: harness.agent.id, ...body },
  });
}

async function lookup(id: string): Promise<DispatchRecord> {
  return (await harness.call("/tracker/dispatches/lookup", { body: { id } })).dispatch;
}

async function storedRecords(): Promise<DispatchRecord[]> {
  return JSON.parse(await readFile(join(harness.dataDir, DISPATCHES_FILE), "utf8")).dispatches;
}

async function errorOf(response: Response) {
  return {
    status: response.status,
    ...((await response.json()) as { error: { code: string; message: string } }).error,
  };
}

describe("POST /tracker/dispatches (create)", () => {
  it("quick-creates with the words, image links after them and the attachment ids; returns creating", async () => {
    const attachment = await uploadedAttachment();
    const { dispatch } = await createDispatch({
      prompt: "Add a dark mode toggle",
      attachments: [attachment],
    });
    expect(dispatch).toMatchObject({
      kind: "issue",
      state: "creating",
      workspaceId: harness.workspace.id,
      projectId: harness.project.id,
      agentId: harness.agent.id,
      agentName: "Claude",
      prompt: "Add a dark mode toggle",
      images: 1,
      issueId: null,
    });
    const sent = harness.state.quickCreateRequests.get(dispatch.id);
    expect(sent).toMatchObject({
      prompt: `Add a dark mode toggle\n\n![screen \\[1\\].png](${attachment.markdownUrl})`,
      agent_id: harness.agent.id,
      project_id: harness.project.id,
      attachment_ids: [attachment.id],
    });
    expect(dispatch.taskId).toBe(dispatch.id);
  });

  it("keeps only the user's words and an image count in dispatches.json (mode 600)", async () => {
    const attachment = await uploadedAttachment();
    const { dispatch } = await createDispatch({
      prompt: "Words only",
      attachments: [attachment, attachment],
    });
    const [stored] = await storedRecords();
    expect(stored).toEqual(dispatch);
    expect(stored?.prompt).toBe("Words only");
    expect(stored?.images).toBe(2);
    expect(JSON.stringify(stored)).not.toContain(attachment.markdownUrl);
    expect((await stat(join(harness.dataDir, DISPATCHES_FILE))).mode & 0o777).toBe(0o600);
  });

  it("accepts images without words", async () => {
    const attachment = await uploadedAttachment();
    const { dispatch } = await createDispatch({ attachments: [attachment] });
    expect(dispatch.prompt).toBe("");
    expect(harness.state.quickCreateRequests.get(dispatch.id)?.prompt).toBe(
      `![screen \\[1\\].png](${attachment.markdownUrl})`,
    );
  });

  it("answers 400 invalid_dispatch for neither words nor images, and for words over the limit", async () => {
    expect(
      await errorOf(
        await harness.request("/tracker/dispatches", {
          body: { projectId: harness.project.id, agentId: harness.agent.id, prompt: "   " },
        }),
      ),
    ).toMatchObject({ status: 400, code: "invalid_dispatch" });
    expect(
      await errorOf(
        await harness.request("/tracker/dispatches", {
          body: {
            projectId: harness.project.id,
            agentId: harness.agent.id,
            prompt: "x".repeat(DISPATCH_WORDS_MAX + 1),
          },
        }),
      ),
    ).toMatchObject({ status: 400, code: "invalid_dispatch" });
    expect(harness.state.quickCreateRequests.size).toBe(0);
  });

  it("answers 422 agent_unavailable with the tracker's reason when the agent's computer is offline", async () => {
    const response = await harness.request("/tracker/dispatches", {
      body: { projectId: harness.project.id, agentId: harness.offlineAgent.id, prompt: "Do it" },
    });
    expect(await errorOf(response)).toEqual({
      status: 422,
      code: "agent_unavailable",
      message: "agent runtime is offline",
    });
    expect(await harness.call("/tracker/dispatches")).toEqual({ dispatches: [] });
  });

  it("answers 422 agent_not_found and project_not_found", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(
      await errorOf(
        await harness.request("/tracker/dispatches", {
          body: { projectId: harness.project.id, agentId: missing, prompt: "x" },
        }),
      ),
    ).toMatchObject({ status: 422, code: "agent_not_found" });
    expect(
      await errorOf(
        await harness.request("/tracker/dispatches", {
          body: { projectId: missing, agentId: harness.agent.id, prompt: "x" },
        }),
      ),
    ).toMatchObject({ status: 422, code: "project_not_found" });
  });

  it("answers 422 tracker_not_configured after the token is deleted", async () => {
    await harness.call("/tracker/settings", { method: "DELETE" });
    expect(
      await errorOf(
        await harness.request("/tracker/dispatches", {
          body: { projectId: harness.project.id, agentId: harness.agent.id, prompt: "x" },
        }),
      ),
    ).toMatchObject({ status: 422, code: "tracker_not_configured" });
  });
});

describe("POST /tracker/dispatches (comment)", () => {
  it("posts the words and images as a top-level comment; returns created with kind comment", async () => {
    const { state, workspace, agent, project } = harness;
    const issue = state.addIssue(workspace.id, {
      title: "Pricing page",
      priority: "medium",
      project_id: project.id,
      assignee_type: "agent",
      assignee_id: agent.id,
    });
    const attachment = await uploadedAttachment();
    const { dispatch } = await harness.call("/tracker/dispatches", {
      body: { issueId: `RING-${issue.number}`, prompt: "Also update the FAQ", attachments: [attachment] },
    });
    const comment = state.comments.get(dispatch.id);
    expect(comment).toMatchObject({
      issue_id: issue.id,
      parent_id: null,
      author_type: "member",
      content: `Also update the FAQ\n\n![screen \\[1\\].png](${attachment.markdownUrl})`,
    });
    expect(comment?.attachments.map((entry) => entry.id)).toEqual([attachment.id]);
    expect(dispatch).toMatchObject({
      kind: "comment",
      state: "created",
      issueId: issue.id,
      issueNumber: issue.number,
      issueIdentifier: `RING-${issue.number}`,
      title: "Pricing page",
      status: "todo",
      priority: "medium",
      agentName: "Claude",
      prompt: "Also update the FAQ",
      images: 1,
    });
    // The tracker triggers the assigned agent as usual.
    expect([...state.tasks.values()].some((task) => task.trigger_comment_id === dispatch.id)).toBe(true);
  });

  it("answers 422 issue_not_found for an issue that does not exist", async () => {
    const response = await harness.request("/tracker/dispatches", {
      body: { issueId: "RING-999", prompt: "x" },
    });
    expect(await errorOf(response)).toMatchObject({ status: 422, code: "issue_not_found" });
  });

  it("answers 400 invalid_request for a body mixing both forms", async () => {
    const response = await harness.request("/tracker/dispatches", {
      body: { issueId: "RING-1", projectId: harness.project.id, prompt: "x" },
    });
    expect(await errorOf(response)).toMatchObject({ status: 400, code: "invalid_request" });
  });
});

describe("dispatch record states", () => {
  it("creating -> created when the task is linked to an issue; title, status and priority are read", async () => {
    const { dispatch } = await createDispatch({ prompt: "Add search" });
    expect((await lookup(dispatch.id)).state).toBe("creating");
    const { issue } = harness.state.completeQuickCreate(dispatch.id, {
      title: "Add search",
      priority: "high",
    });
    expect(await lookup(dispatch.id)).toMatchObject({
      state: "created",
      issueId: issue.id,
      issueNumber: issue.number,
      issueIdentifier: `RING-${issue.number}`,
      title: "Add search",
      status: "todo",
      priority: "high",
      agentName: "Claude",
      error: null,
    });
  });

  it("creating -> failed when the task failed", async () => {
    const { dispatch } = await createDispatch({ prompt: "Break" });
    harness.state.failTask(dispatch.id, { failureReason: "agent_error" });
    expect(await lookup(dispatch.id)).toMatchObject({ state: "failed", error: "agent_error" });
  });

  it("creating -> cancelled when the task was cancelled in the tracker", async () => {
    const { dispatch } = await createDispatch({ prompt: "Never mind" });
    harness.state.cancelTask(dispatch.id);
    expect(await lookup(dispatch.id)).toMatchObject({ state: "cancelled" });
  });

  it("creating -> failed when the task completed and a minute later there is still no issue", async () => {
    const { dispatch } = await createDispatch({ prompt: "No issue" });
    harness.state.finishTask(dispatch.id, { report: null });
    const waiting = await lookup(dispatch.id);
    expect(waiting).toMatchObject({ state: "creating", taskCompletedAt: expect.any(String) });
    harness.advanceClock(DISPATCH_COMPLETED_WITHOUT_ISSUE_MS - 5_000);
    expect((await lookup(dispatch.id)).state).toBe("creating");
    harness.advanceClock(5_000);
    expect(await lookup(dispatch.id)).toMatchObject({
      state: "failed",
      error: "The agent finished without creating an issue.",
    });
  });

  it("creating -> failed when the tracker no longer has the task", async () => {
    const { dispatch } = await createDispatch({ prompt: "Vanishing" });
    harness.state.tasks.delete(dispatch.id);
    expect(await lookup(dispatch.id)).toMatchObject({
      state: "failed",
      error: "The tracker no longer has the task (or its agent).",
    });
  });

  it("creating stays creating while the tracker cannot be reached", async () => {
    const { dispatch } = await createDispatch({ prompt: "Patience" });
    // The watcher's first catch-up reads the same task list: let it finish first.
    await harness.watcherCaughtUp();
    const path = `/api/agents/${harness.agent.id}/tasks`;
    const before = harness.fake.requests.count("GET", path);
    harness.fake.faults.serverError(path, { times: 4 });
    expect(await lookup(dispatch.id)).toEqual(dispatch);
    expect(harness.fake.requests.count("GET", path) - before).toBe(4);
  });

  it("created -> created with the current title, status and priority re-read on every refresh", async () => {
    const { dispatch } = await createDispatch({ prompt: "Rename" });
    const { issue } = harness.state.completeQuickCreate(dispatch.id, { title: "Old title" });
    await lookup(dispatch.id);
    issue.title = "New title";
    issue.status = "in_review";
    issue.priority = "urgent";
    const { dispatches } = await harness.call("/tracker/dispatches");
    expect(dispatches[0]).toMatchObject({
      state: "created",
      title: "New title",
      status: "in_review",
      priority: "urgent",
    });
  });

  it("cancel while creating cancels the tracker task once; the state is cancelled once the tracker confirms", async () => {
    const { dispatch } = await createDispatch({ prompt: "Oops" });
    const { dispatch: cancelled } = await harness.call("/tracker/dispatches/cancel", {
      body: { id: dispatch.id },
    });
    expect(cancelled.state).toBe("cancelled");
    expect(harness.state.tasks.get(dispatch.id)?.status).toBe("cancelled");
    expect(harness.fake.requests.count("POST", `/api/tasks/${dispatch.id}/cancel`)).toBe(1);
  });

  it("cancel of a created issue changes nothing and sends nothing", async () => {
    const { dispatch } = await createDispatch({ prompt: "Keep" });
    harness.state.completeQuickCreate(dispatch.id, { title: "Kept issue" });
    const created = await lookup(dispatch.id);
    const { dispatch: after } = await harness.call("/tracker/dispatches/cancel", {
      body: { id: dispatch.id },
    });
    expect(after).toEqual(created);
    expect(harness.fake.requests.count("POST", `/api/tasks/${dispatch.id}/cancel`)).toBe(0);
  });

  it("cancel racing the issue: a task already linked stays created, and the issue is untouched", async () => {
    const { dispatch } = await createDispatch({ prompt: "Race" });
    const { issue } = harness.state.completeQuickCreate(dispatch.id, { title: "Won the race" });
    const { dispatch: after } = await harness.call("/tracker/dispatches/cancel", {
      body: { id: dispatch.id },
    });
    expect(after).toMatchObject({ state: "created", issueId: issue.id, title: "Won the race" });
    expect(harness.state.issues.get(issue.id)?.status).toBe("todo");
  });

  it("answers 422 dispatch_not_found for lookup and cancel of an unknown id", async () => {
    for (const path of ["/tracker/dispatches/lookup", "/tracker/dispatches/cancel"]) {
      expect(await errorOf(await harness.request(path, { body: { id: "nope" } }))).toMatchObject({
        status: 422,
        code: "dispatch_not_found",
      });
    }
  });
});

describe("GET /tracker/dispatches", () => {
  it(`keeps and returns the ${DISPATCH_RECORDS_MAX} newest, newest first`, async () => {
    const ids: string[] = [];
    for (let index = 0; index <= DISPATCH_RECORDS_MAX; index += 1) {
      ids.push((await createDispatch({ prompt: `Job ${index}` })).dispatch.id);
    }
    const { dispatches } = await harness.call("/tracker/dispatches");
    expect(dispatches.map((record: DispatchRecord) => record.id)).toEqual(ids.slice(1).reverse());
    expect(await storedRecords()).toHaveLength(DISPATCH_RECORDS_MAX);
  });

  it("refreshes with one task list per agent and the issues of a project in one page", async () => {
    const created: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const { dispatch } = await createDispatch({ prompt: `Issue ${index}` });
      harness.state.completeQuickCreate(dispatch.id, { title: `Issue ${index}`, followUp: false });
      created.push(dispatch.id);
    }
    await harness.call("/tracker/dispatches");
    for (let index = 0; index < 4; index += 1) await createDispatch({ prompt: `Pending ${index}` });
    await harness.watcherCaughtUp();
    harness.fake.requests.clear();
    const { dispatches } = await harness.call("/tracker/dispatches");
    expect(dispatches).toHaveLength(10);
    const counts = {
      taskLists: harness.fake.requests.count("GET", `/api/agents/${harness.agent.id}/tasks`),
      pages: harness.fake.requests.count("GET", "/api/issues"),
      singleIssues: harness.fake.requests.count("GET", /^\/api\/issues\/[^/]+$/),
    };
    expect(counts).toEqual({ taskLists: 1, pages: 1, singleIssues: 0 });
    expect(harness.fake.requests.entries).toHaveLength(2);
  });

  it("shows the records as last known when no token is saved", async () => {
    const { dispatch } = await createDispatch({ prompt: "Offline list" });
    await harness.call("/tracker/settings", { method: "DELETE" });
    harness.fake.requests.clear();
    expect((await harness.call("/tracker/dispatches")).dispatches).toEqual([dispatch]);
    expect(harness.fake.requests.entries).toHaveLength(0);
  });
});
