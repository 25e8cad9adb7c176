import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { createTrackerClient, type TrackerClientOptions } from "../src/index.js";

/**
 * A simulated tracker with one user, one workspace ("ringback", prefix RING) and the things every test
 * file needs: projects in each state, agents on an online and an offline runtime, issues.
 */
export async function startTracker() {
  const fake = await startFakeMultica();
  const { state } = fake;
  const user = state.addUser({ name: "Ada" });
  const workspace = state.addWorkspace({ name: "Ringback", slug: "ringback", members: [user.id] });
  const project = state.addProject(workspace.id, { title: "Launch", status: "in_progress" });
  const onlineRuntime = state.addRuntime(workspace.id, { name: "laptop", status: "online" });
  const offlineRuntime = state.addRuntime(workspace.id, { name: "desktop", status: "offline" });
  const agent = state.addAgent(workspace.id, { name: "Claude", runtime_id: onlineRuntime.id });
  const offlineAgent = state.addAgent(workspace.id, { name: "Codex", runtime_id: offlineRuntime.id });
  const issue = state.addIssue(workspace.id, {
    title: "Fix the login redirect",
    project_id: project.id,
    assignee_type: "agent",
    assignee_id: agent.id,
  });
  return {
    fake,
    state,
    user,
    token: user.token,
    workspace,
    project,
    onlineRuntime,
    offlineRuntime,
    agent,
    offlineAgent,
    issue,
    [Symbol.asyncDispose]: () => fake.close(),
  };
}

export type Tracker = Awaited<ReturnType<typeof startTracker>>;

/**
 * A client for the simulator that records log lines and the delays it was asked to sleep, without
 * sleeping (or sleeping `sleepMs` of real time, for reconnect loops).
 */
export function clientFor(
  fake: FakeMultica,
  token: string,
  options: Partial<TrackerClientOptions> & { sleepMs?: number } = {},
) {
  const logs: string[] = [];
  const delays: number[] = [];
  const { sleepMs = 0, ...clientOptions } = options;
  const client = createTrackerClient({
    token,
    baseUrl: fake.url,
    log: (line) => logs.push(line),
    sleep: async (ms) => {
      delays.push(ms);
      if (sleepMs > 0) await new Promise((resolve) => setTimeout(resolve, sleepMs));
    },
    ...clientOptions,
  });
  return { client, logs, delays };
}

/** The rejection of a promise, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Record<string, unknown> & Error> {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown> & Error;
  }
  throw new Error("expected the call to fail");
}
