/**
 * The gathering window as a person meets it: a real daemon process (built `dist/main.js`) with the fake model writing
 * each brief at once, three agents finishing inside one window, and a relay stand-in that accepts the events. Time
 * from the last finish in the window to the ring (the relay accepted all three events), beside the configured window
 * and beside a window of 0 s (each finish sent as soon as its brief is written) measured in the same run.
 *
 *   pnpm --filter @ringback/daemon bench      (after `pnpm --filter @ringback/daemon build`)
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startFakeModel } from "@ringback/fake-model";
import { BenchReport } from "../../../scripts/bench-report.mjs";
import { startBenchDaemon } from "./bench-daemon.ts";

const GATHER_SECONDS = 2;
const WINDOWS = 5;
/** When each of a window's three agents finishes, from the first (ms). */
const FINISH_OFFSETS_MS = [0, 400, 800];
const MODEL_KEY = "sk-bench-gathering-0123456789";

await using model = await startFakeModel({ apiKey: MODEL_KEY });

/** When the relay accepted each event (performance.now()), and who waits for the next one. */
const acceptedAt: number[] = [];
let onAccepted: () => void = () => undefined;
const relay = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    if (request.method === "POST" && request.url === "/v1/daemon/events") {
      response.writeHead(202, { "content-type": "application/json" }).end("{}");
      acceptedAt.push(performance.now());
      onAccepted();
    } else {
      response.writeHead(404, { "content-type": "application/json" }).end("{}");
    }
  });
});
await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;

const home = await mkdtemp(join(tmpdir(), "ringback-gathering-bench-"));
const llm = { primary: { baseUrl: model.url, apiKey: MODEL_KEY, model: "fake-model" } };
await writeFile(
  join(home, "daemon.json"),
  JSON.stringify({ llm, callRules: { gatherSeconds: GATHER_SECONDS } }),
  { mode: 0o600 },
);
const { child: daemon, port } = await startBenchDaemon(home, { RINGBACK_SERVER_URL: relayUrl });
const localKey = (await readFile(join(home, "local-api.key"), "utf8")).trim();

async function local(method: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status !== 202 && response.status !== 200)
    throw new Error(`daemon answered ${response.status}`);
}

let turn = 0;
/** One agent finishing: its report accepted (202); resolves with when that was. */
async function finish(): Promise<number> {
  turn += 1;
  await local("POST", "/report", {
    source: "claude-code",
    sessionId: `bench-session-${turn}`,
    turnId: `turn-${turn}`,
    cwd: `/home/user/project-${turn % 3}`,
    text: "The login bug is fixed. All 42 tests pass.",
  });
  return performance.now();
}

/** Resolves once the relay has accepted `count` events in all. */
async function acceptedCount(count: number): Promise<void> {
  while (acceptedAt.length < count) await new Promise<void>((resolve) => (onAccepted = resolve));
}

/** Agents finishing at `offsets` (ms); ms from the first and from the last finish to the relay accepting them all. */
async function windowOf(offsets: readonly number[]): Promise<{ fromFirst: number; fromLast: number }> {
  const expected = acceptedAt.length + offsets.length;
  const startedAt = performance.now();
  const finishedAt: number[] = [];
  for (const offset of offsets) {
    await sleep(Math.max(0, startedAt + offset - performance.now()));
    finishedAt.push(await finish());
  }
  await acceptedCount(expected);
  const rangAt = Math.max(...acceptedAt.slice(expected - offsets.length));
  return { fromFirst: rangAt - (finishedAt[0] ?? rangAt), fromLast: rangAt - (finishedAt.at(-1) ?? rangAt) };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const rows: string[][] = [];
try {
  await windowOf([0]); // warm-up: the first brief and the first post open their connections
  const gathered = [];
  for (let index = 0; index < WINDOWS; index += 1) gathered.push(await windowOf(FINISH_OFFSETS_MS));
  await local("PUT", "/call-rules", { gatherSeconds: 0, projects: {}, quietSummaryAt: null });
  const atOnce = [];
  for (let index = 0; index < WINDOWS; index += 1) atOnce.push(await windowOf([0]));
  rows.push([
    `${GATHER_SECONDS} s (configured)`,
    String(FINISH_OFFSETS_MS.length),
    ms(median(gathered.map((window) => window.fromFirst))),
    ms(median(gathered.map((window) => window.fromLast))),
    ms(Math.max(...gathered.map((window) => window.fromLast))),
  ]);
  rows.push([
    "0 s (off, baseline)",
    "1",
    ms(median(atOnce.map((window) => window.fromFirst))),
    ms(median(atOnce.map((window) => window.fromLast))),
    ms(Math.max(...atOnce.map((window) => window.fromLast))),
  ]);
} finally {
  daemon.kill("SIGTERM");
  await new Promise((resolve) => daemon.once("exit", resolve));
  relay.close();
  await rm(home, { recursive: true, force: true });
}

const report = new BenchReport("@ringback/daemon gathering window", "@ringback/daemon: the gathering window");
report.line(
  `Agents finishing ${FINISH_OFFSETS_MS.join(", ")} ms after the first, ${WINDOWS} windows per row, the fake model ` +
    "(brief at once); ring = the relay accepted every event of the window. The last finish rings after the window " +
    `less the ${FINISH_OFFSETS_MS.at(-1)} ms it came after the first, plus the send.`,
);
report.line();
report.table(
  [
    "window",
    "agents per call",
    "first finish -> ring (p50)",
    "last finish -> ring (p50)",
    "last finish -> ring (max)",
  ],
  rows,
);
await report.save();
