import { TRACKER_READ_RETRY_DELAYS_MS } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pngBytes, startTrackerHarness, type TrackerHarness } from "./tracker-harness.js";

let harness: TrackerHarness;

beforeEach(async () => {
  harness = await startTrackerHarness();
  await harness.configure();
  harness.sleeps.length = 0;
});

afterEach(async () => {
  await harness.close();
});

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe("tracker reads", () => {
  it("are retried after 0.5, 1 and 2 seconds on 5xx, and then succeed", async () => {
    harness.fake.faults.serverError("/api/projects", { times: 3 });
    const body = await harness.call("/tracker/dispatch/options");
    expect(body.projects).toHaveLength(1);
    expect(harness.fake.requests.count("GET", "/api/projects")).toBe(4);
    expect(harness.sleeps).toEqual([...TRACKER_READ_RETRY_DELAYS_MS]);
  });

  it("are retried on 429 and on a dropped connection, with the cause in the log", async () => {
    harness.fake.faults.rateLimit("/api/issue-statuses", { times: 1 });
    harness.fake.faults.reset("/api/issue-statuses", { times: 1 });
    const body = await harness.call("/tracker/dispatch/statuses", { body: {} });
    expect(body.statuses.length).toBeGreaterThan(0);
    expect(harness.fake.requests.count("GET", "/api/issue-statuses")).toBe(3);
    expect(harness.sleeps).toEqual(TRACKER_READ_RETRY_DELAYS_MS.slice(0, 2));
    expect(harness.logLines.some((line) => line.includes("network error"))).toBe(true);
  });

  it("give up after the third retry: 502 tracker_unavailable after exactly 4 requests", async () => {
    harness.fake.faults.serverError("/api/issue-statuses", { times: 10 });
    const response = await harness.request("/tracker/dispatch/statuses", { body: {} });
    expect(response.status).toBe(502);
    expect(await errorCode(response)).toBe("tracker_unavailable");
    expect(harness.fake.requests.count("GET", "/api/issue-statuses")).toBe(4);
    expect(harness.sleeps).toEqual([...TRACKER_READ_RETRY_DELAYS_MS]);
  });
});

describe("tracker writes are sent exactly once, never retried", () => {
  it("quick-create: a 5xx is 502 and no dispatch is recorded", async () => {
    harness.fake.faults.serverError("/api/issues/quick-create");
    const response = await harness.request("/tracker/dispatches", {
      body: { projectId: harness.project.id, agentId: harness.agent.id, prompt: "Once" },
    });
    expect(response.status).toBe(502);
    expect(harness.fake.requests.count("POST", "/api/issues/quick-create")).toBe(1);
    expect(harness.sleeps).toEqual([]);
    expect((await harness.call("/tracker/dispatches")).dispatches).toEqual([]);
  });

  it("comment: a dropped connection is 502, sent once", async () => {
    const issue = harness.state.addIssue(harness.workspace.id, { title: "Comment target" });
    harness.fake.faults.reset(`/api/issues/${issue.id}/comments`, { method: "POST" });
    const response = await harness.request("/tracker/dispatches", {
      body: { issueId: issue.id, prompt: "Once" },
    });
    expect(response.status).toBe(502);
    expect(harness.fake.requests.count("POST", `/api/issues/${issue.id}/comments`)).toBe(1);
    expect(harness.sleeps).toEqual([]);
  });

  it("upload: a 429 is 502, sent once", async () => {
    harness.fake.faults.rateLimit("/api/upload-file");
    const response = await harness.request("/tracker/uploads", {
      body: { name: "a.png", type: "image/png", data: pngBytes().toString("base64") },
    });
    expect(response.status).toBe(502);
    expect(harness.fake.requests.count("POST", "/api/upload-file")).toBe(1);
    expect(harness.sleeps).toEqual([]);
  });

  it("cancel: a 5xx is 502, sent once, and the dispatch stays creating", async () => {
    const { dispatch } = await harness.call("/tracker/dispatches", {
      body: { projectId: harness.project.id, agentId: harness.agent.id, prompt: "Cancel me" },
    });
    harness.fake.faults.serverError(`/api/tasks/${dispatch.id}/cancel`);
    const response = await harness.request("/tracker/dispatches/cancel", { body: { id: dispatch.id } });
    expect(response.status).toBe(502);
    expect(harness.fake.requests.count("POST", `/api/tasks/${dispatch.id}/cancel`)).toBe(1);
    expect(harness.state.tasks.get(dispatch.id)?.status).toBe("queued");
    expect(
      (await harness.call("/tracker/dispatches/lookup", { body: { id: dispatch.id } })).dispatch.state,
    ).toBe("creating");
  });
});
