import { TRACKER_READ_RETRY_DELAYS_MS } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { clientFor, rejectionOf, startTracker, type Tracker } from "./tracker.js";

const PATH = "/api/projects";

const faultKinds: [string, (tracker: Tracker, times: number) => void][] = [
  ["a 5xx", (tracker, times) => tracker.fake.faults.serverError(PATH, { times, status: 503 })],
  [
    "a 429 (whatever its Retry-After says)",
    (tracker, times) => tracker.fake.faults.rateLimit(PATH, { times, retryAfterSeconds: 7 }),
  ],
  ["a connection reset", (tracker, times) => tracker.fake.faults.reset(PATH, { times })],
];

describe("read retries", () => {
  it("are the spec's 0.5, 1 and 2 seconds", () => {
    expect(TRACKER_READ_RETRY_DELAYS_MS).toEqual([500, 1000, 2000]);
  });

  for (const [kind, inject] of faultKinds) {
    it(`retry ${kind} three times after 500, 1000 and 2000 ms, then give up with tracker_unavailable`, async () => {
      await using tracker = await startTracker();
      inject(tracker, 4);
      const { client, delays, logs } = clientFor(tracker.fake, tracker.token);

      const error = await rejectionOf(client.listProjects({ workspaceId: tracker.workspace.id }));

      expect(error).toMatchObject({ code: "tracker_unavailable", status: 502 });
      expect(delays).toEqual([500, 1000, 2000]);
      expect(tracker.fake.requests.count("GET", PATH)).toBe(4);
      expect(logs).toHaveLength(4);
      expect(logs[0]).toContain(`GET ${PATH}`);
      expect(logs[0]).toContain("retry 1 of 3 in 500 ms");
      expect(logs[3]).toContain("giving up after 3 retries");
    });

    it(`stop retrying ${kind} once the third attempt succeeds`, async () => {
      await using tracker = await startTracker();
      inject(tracker, 2);
      const { client, delays } = clientFor(tracker.fake, tracker.token);

      const projects = await client.listProjects({ workspaceId: tracker.workspace.id });

      expect(projects.map((project) => project.id)).toEqual([tracker.project.id]);
      expect(delays).toEqual([500, 1000]);
      expect(tracker.fake.requests.count("GET", PATH)).toBe(3);
    });
  }

  it("log the network cause of a failed attempt", async () => {
    await using tracker = await startTracker();
    tracker.fake.faults.reset(PATH, { times: 1 });
    const { client, logs } = clientFor(tracker.fake, tracker.token);

    await client.listProjects({ workspaceId: tracker.workspace.id });

    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/network error: .*(socket|closed|reset|ECONNRESET)/i);
  });

  it("keep the network cause on the error when every attempt failed", async () => {
    await using tracker = await startTracker();
    const { client, delays } = clientFor(tracker.fake, tracker.token);
    await tracker.fake.close();

    const error = await rejectionOf(client.listWorkspaces());

    expect(error).toMatchObject({ code: "tracker_unavailable", trackerStatus: null });
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.cause).toBeInstanceOf(Error);
    expect(delays).toEqual([500, 1000, 2000]);
  });

  it("retry an answer slower than the call's time limit", async () => {
    await using tracker = await startTracker();
    tracker.fake.faults.slow(PATH, 2000, { times: 1 });
    const { client, delays, logs } = clientFor(tracker.fake, tracker.token, { timeoutMs: 100 });

    const projects = await client.listProjects({ workspaceId: tracker.workspace.id });

    expect(projects).toHaveLength(1);
    expect(delays).toEqual([500]);
    expect(logs[0]).toContain("no answer within 100 ms");
  });

  it("do not retry other failures", async () => {
    await using tracker = await startTracker();
    const { client, delays } = clientFor(tracker.fake, tracker.token);

    await rejectionOf(
      client.getProject({ workspaceId: tracker.workspace.id, projectId: crypto.randomUUID() }),
    );

    expect(delays).toEqual([]);
    expect(tracker.fake.requests.count("GET", /^\/api\/projects\//)).toBe(1);
  });

  it("apply to every read, including the two behind agents with online", async () => {
    await using tracker = await startTracker();
    tracker.fake.faults.serverError("/api/runtimes", { times: 1 });
    tracker.fake.faults.serverError("/api/agents", { times: 1 });
    const { client, delays } = clientFor(tracker.fake, tracker.token);

    const agents = await client.listAgentsWithOnline({ workspaceId: tracker.workspace.id });

    expect(agents).toHaveLength(2);
    expect(delays).toEqual([500, 500]);
  });
});
