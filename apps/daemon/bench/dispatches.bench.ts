/**
 * `GET /tracker/dispatches` with 100 records against the tracker simulator, every tracker answer delayed by
 * 20 ms (a tracker across the internet), on a real daemon process (built `dist/main.js`). Every read
 * refreshes from the tracker; this shows how many tracker requests one refresh makes and what it costs,
 * next to what one request per record, one after another, would cost. Prints one table (also its section of
 * BENCHMARKS.md).
 *
 *   pnpm --filter @ringback/daemon bench      (after `pnpm --filter @ringback/daemon build`)
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import type { DispatchRecord } from "@ringback/protocol";
import { dispatchRecord } from "@ringback/test-kit";
import { BenchReport } from "../../../scripts/bench-report.mjs";
import { startBenchDaemon } from "./bench-daemon.ts";

const RECORDS = 100;
const TRACKER_DELAY_MS = 20;
const WARM_UP_READS = 2;
const MEASURED_READS = 15;
const WATCHER_SETTLE_MS = 500;

interface Scenario {
  name: string;
  /** Seeds the simulator and returns the records of dispatches.json. */
  seed(fake: FakeMultica, workspaceId: string): DispatchRecord[];
}

function record(
  fields: Partial<DispatchRecord> & Pick<DispatchRecord, "id" | "state" | "workspaceId">,
): DispatchRecord {
  const epoch = new Date(0).toISOString();
  return dispatchRecord({
    projectId: null,
    agentId: null,
    prompt: "Bench dispatch",
    taskId: null,
    createdAt: epoch,
    updatedAt: epoch,
    ...fields,
  });
}

/** `count` created dispatches whose issues are spread over `projects` projects (0: issues without a project). */
function createdRecords(
  fake: FakeMultica,
  workspaceId: string,
  count: number,
  projects: number,
): DispatchRecord[] {
  const agent = [...fake.state.agents.values()][0]!;
  const projectIds = Array.from(
    { length: projects },
    (_, index) => fake.state.addProject(workspaceId, { title: `Project ${index}` }).id,
  );
  return Array.from({ length: count }, (_, index) => {
    const projectId = projectIds.length > 0 ? projectIds[index % projectIds.length]! : null;
    const issue = fake.state.addIssue(workspaceId, {
      title: `Issue ${index}`,
      project_id: projectId,
      assignee_type: "agent",
      assignee_id: agent.id,
    });
    return record({
      id: `created-${index}`,
      state: "created",
      workspaceId,
      projectId,
      agentId: agent.id,
      agentName: agent.name,
      issueId: issue.id,
      issueNumber: issue.number,
      issueIdentifier: `BNCH-${issue.number}`,
      title: issue.title,
      status: issue.status,
      priority: issue.priority,
    });
  });
}

/** `count` dispatches whose quick-create tasks are still queued, spread over `agents` agents. */
function creatingRecords(
  fake: FakeMultica,
  workspaceId: string,
  count: number,
  agents: number,
): DispatchRecord[] {
  const runtime = [...fake.state.runtimes.values()][0]!;
  const agentList = Array.from({ length: agents }, (_, index) =>
    fake.state.addAgent(workspaceId, { name: `Agent ${index}`, runtime_id: runtime.id }),
  );
  return Array.from({ length: count }, (_, index) => {
    const agent = agentList[index % agentList.length]!;
    const task = fake.state.addTask({ agent_id: agent.id, kind: "quick_create", status: "queued" });
    return record({
      id: task.id,
      state: "creating",
      workspaceId,
      agentId: agent.id,
      agentName: agent.name,
      taskId: task.id,
    });
  });
}

const SCENARIOS: Scenario[] = [
  { name: "100 created, 1 project", seed: (fake, workspace) => createdRecords(fake, workspace, RECORDS, 1) },
  {
    name: "100 created, 10 projects",
    seed: (fake, workspace) => createdRecords(fake, workspace, RECORDS, 10),
  },
  { name: "100 created, no project", seed: (fake, workspace) => createdRecords(fake, workspace, RECORDS, 0) },
  {
    name: "50 creating (5 agents) + 50 created",
    seed: (fake, workspace) => [
      ...creatingRecords(fake, workspace, RECORDS / 2, 5),
      ...createdRecords(fake, workspace, RECORDS / 2, 1),
    ],
  },
  {
    name: "100 failed or cancelled",
    seed: (_fake, workspace) =>
      Array.from({ length: RECORDS }, (_, index) =>
        record({
          id: `done-${index}`,
          state: index % 2 === 0 ? "failed" : "cancelled",
          workspaceId: workspace,
        }),
      ),
  },
];

function startDaemon(home: string, trackerUrl: string): Promise<{ child: ChildProcess; port: number }> {
  return startBenchDaemon(home, { DAEMON_TRACKER_API_URL: trackerUrl });
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
}

/** Tracker requests a refresh needs when it reads one thing per record that can change. */
function naiveRequests(records: DispatchRecord[]): number {
  return records.filter((entry) => entry.state === "creating" || entry.state === "created").length;
}

/** One row of the table: a fresh simulator and daemon, removed afterwards whatever happens. */
async function measure(scenario: Scenario): Promise<string[]> {
  const fake = await startFakeMultica();
  const home = await mkdtemp(join(tmpdir(), "ringback-dispatch-bench-"));
  let daemon: { child: ChildProcess; port: number } | undefined;
  try {
    const user = fake.state.addUser();
    const workspace = fake.state.addWorkspace({ name: "Bench", slug: "bench", members: [user.id] });
    const runtime = fake.state.addRuntime(workspace.id, { status: "online" });
    fake.state.addAgent(workspace.id, { name: "Claude", runtime_id: runtime.id });
    const records = scenario.seed(fake, workspace.id);
    const config = { tracker: { token: user.token, workspaces: [workspace.id] } };
    await writeFile(join(home, "daemon.json"), JSON.stringify(config), { mode: 0o600 });
    await writeFile(join(home, "dispatches.json"), JSON.stringify({ version: 1, dispatches: records }), {
      mode: 0o600,
    });
    daemon = await startDaemon(home, fake.url);
    const port = daemon.port;
    const localKey = (await readFile(join(home, "local-api.key"), "utf8")).trim();
    // The workspace watcher's first catch-up reads tasks too: let it finish before anything is counted.
    while (fake.realtime.accepted === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, WATCHER_SETTLE_MS));
    fake.faults.slow(/^\/api\//, TRACKER_DELAY_MS, { times: Number.POSITIVE_INFINITY });

    const list = async () => {
      const response = await fetch(`http://127.0.0.1:${port}/tracker/dispatches`, {
        headers: { authorization: `Bearer ${localKey}` },
      });
      const body = (await response.json()) as { dispatches: DispatchRecord[] };
      if (response.status !== 200 || body.dispatches.length !== RECORDS) {
        throw new Error(`unexpected answer ${response.status}`);
      }
    };
    for (let index = 0; index < WARM_UP_READS; index += 1) await list();
    const apiRequests = () => fake.requests.entries.filter((entry) => entry.path.startsWith("/api/")).length;
    const requestsBefore = apiRequests();
    const timings: number[] = [];
    for (let index = 0; index < MEASURED_READS; index += 1) {
      const started = performance.now();
      await list();
      timings.push(performance.now() - started);
    }
    const perRead = (apiRequests() - requestsBefore) / MEASURED_READS;
    timings.sort((a, b) => a - b);
    return [
      scenario.name,
      String(Math.round(perRead * 10) / 10),
      String(naiveRequests(records)),
      percentile(timings, 0.5).toFixed(0),
      percentile(timings, 0.95).toFixed(0),
      String(naiveRequests(records) * TRACKER_DELAY_MS),
    ];
  } finally {
    const child = daemon?.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await fake.close();
    await rm(home, { recursive: true, force: true });
  }
}

const rows: string[][] = [];
for (const scenario of SCENARIOS) rows.push(await measure(scenario));

const header = [
  "GET /tracker/dispatches (100 records)",
  "tracker requests / read",
  "one per record",
  "p50 ms",
  "p95 ms",
  "sequential, one per record: ms",
];
const report = new BenchReport(
  "@ringback/daemon dispatches",
  "@ringback/daemon: GET /tracker/dispatches against a slow tracker",
);
report.line(
  `Every tracker answer delayed by ${TRACKER_DELAY_MS} ms; ${MEASURED_READS} reads per row after ${WARM_UP_READS} warm-up reads.`,
);
report.line();
report.table(header, rows);
await report.save();
